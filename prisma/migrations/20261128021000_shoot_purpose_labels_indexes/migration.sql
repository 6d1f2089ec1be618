-- The fleet list's purpose and label filters (GET /api/v1/shoots?purpose=…&labels=…; the same
-- filter of bulk actions and update-run stages). Both live in the documents, not in derived
-- columns, so each has an expression index (lib/store/shoot-page.ts writes the expressions exactly
-- so). Prisma's schema cannot state them; schema.prisma says so beside the model.
--
-- The purpose, with Gardener's default for an unset one, then the name order: a purpose's page in
-- name order (the default) is a walk along it, and its count reads only its entries.
CREATE INDEX "shoots_purpose_idx" ON "shoots" ((coalesce("spec"->>'purpose', 'evaluation')), "name", "namespace");
-- The labels: containment (`@>`, a label's value) and key existence (`?`), which jsonb_ops answers.
CREATE INDEX "shoots_labels_idx" ON "shoots" USING gin (("metadata"->'labels'));
