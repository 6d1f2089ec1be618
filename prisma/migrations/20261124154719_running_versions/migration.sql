-- AlterTable
ALTER TABLE "shoots" ADD COLUMN     "running_versions" JSONB;

-- Shoots stored before this column: what their last success rolled out is not known any more,
-- so, as for a shoot seen the first time (lib/engine/running-versions.ts), a cluster that exists
-- (any last operation but an unfinished Create, of the current generation) runs its spec.
UPDATE "shoots" SET "running_versions" = jsonb_build_object(
    'since', "status"->'lastOperation'->>'lastUpdateTime',
    'kubernetesVersion', "spec"->'kubernetes'->>'version',
    'workers', COALESCE((
        SELECT jsonb_agg(jsonb_strip_nulls(jsonb_build_object(
            'name', w->>'name',
            'kubernetesVersion', w->'kubernetes'->>'version',
            'image', CASE WHEN w->'machine'->'image' IS NULL THEN NULL
                     ELSE jsonb_strip_nulls(jsonb_build_object(
                         'name', w->'machine'->'image'->>'name',
                         'version', w->'machine'->'image'->>'version')) END
        )) ORDER BY ord)
        FROM jsonb_array_elements(COALESCE("spec"->'provider'->'workers', '[]'::jsonb)) WITH ORDINALITY AS pools(w, ord)
    ), '[]'::jsonb))
WHERE "status"->'lastOperation' ? 'lastUpdateTime'
  AND NOT ("status"->'lastOperation'->>'type' = 'Create' AND "status"->'lastOperation'->>'state' <> 'Succeeded')
  AND ("status"->>'observedGeneration' IS NULL OR "metadata"->>'generation' IS NULL
       OR "status"->>'observedGeneration' = "metadata"->>'generation');
