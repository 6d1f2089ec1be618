// GET /api/v1/jobs and POST /api/v1/jobs/{id}/retry: background jobs that failed for good (their
// retries used up), so that nothing is dropped without anyone seeing it.
import { z } from "zod";
import { component } from "./components.ts";
import { describes } from "./schema-agreement.ts";

export interface FailedJob {
  readonly id: string;
  /** The queue: maintenance, maintain-now, reconcile, migration, deletion. */
  readonly queue: string;
  /** What the job was for, in words ("maintenance of garden-dev/cluster-1"). */
  readonly what: string;
  readonly data: unknown;
  /** The last error the job ended with. */
  readonly error: string;
  /** How many times it ran. */
  readonly attempts: number;
  readonly createdAt: string;
  readonly failedAt: string | null;
}

export interface FailedJobsAnswer {
  readonly items: readonly FailedJob[];
  /** All failed jobs, of which `items` are the newest. */
  readonly total: number;
}

export interface RetriedJobAnswer {
  readonly id: string;
  readonly queue: string;
  /** The job runs again: "retry" until a worker takes it. */
  readonly state: string;
}

export const failedJobSchema = describes<FailedJob>()(
  component(
    "FailedJob",
    z.object({
      id: z.string(),
      queue: z.string(),
      what: z.string().meta({ description: 'What the job was for, in words ("maintenance of garden-dev/cluster-1").' }),
      data: z.unknown(),
      error: z.string(),
      attempts: z.int().meta({ description: "How many times it ran." }),
      createdAt: z.string(),
      failedAt: z.string().nullable(),
    }),
  ),
);

export const failedJobsAnswerSchema = describes<FailedJobsAnswer>()(
  component("FailedJobList", z.object({ items: z.array(failedJobSchema), total: z.int() })),
);

export const retriedJobAnswerSchema = describes<RetriedJobAnswer>()(
  component("RetriedJob", z.object({ id: z.string(), queue: z.string(), state: z.string() })),
);
