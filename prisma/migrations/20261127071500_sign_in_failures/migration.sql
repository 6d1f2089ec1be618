-- Failed password sign-ins per account and per account and client address, for the growing
-- delay before the next try (lib/engine/sign-in-delay.ts).
CREATE TABLE "sign_in_failures" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL,
    "last_failure_at" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sign_in_failures_pkey" PRIMARY KEY ("key")
);
