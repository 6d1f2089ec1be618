-- The shoots whose control plane is moving (the spec names another seed than the one the status
-- is on, shoots.seed): they count on both seeds (lib/store/seeds.ts seedUsage). An index over the
-- expression finds the few without reading every document, and gives the planner its statistics.
-- Prisma's schema cannot state an expression index; schema.prisma says so beside the model.
CREATE INDEX "shoots_seed_moving_idx" ON "shoots" ((COALESCE("spec"->>'seedName', '') <> COALESCE("seed", '')));
