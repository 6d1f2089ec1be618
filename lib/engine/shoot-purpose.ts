// A shoot's purpose (spec.purpose), as Gardener knows them. Gardener defaults an unset purpose to
// "evaluation" (SetDefaults_Shoot), so a document without one counts as an evaluation cluster.

export const SHOOT_PURPOSES = ["evaluation", "testing", "development", "production", "infrastructure"] as const;
export type ShootPurpose = (typeof SHOOT_PURPOSES)[number];

/** The purpose Gardener gives a shoot created without one. */
export const DEFAULT_SHOOT_PURPOSE: ShootPurpose = "evaluation";
