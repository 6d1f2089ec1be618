-- CreateTable
CREATE TABLE "notification_unhealthy_shoots" (
    "namespace" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "uid" UUID NOT NULL,
    "since" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "notification_unhealthy_shoots_pkey" PRIMARY KEY ("namespace","name")
);
