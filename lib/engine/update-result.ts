// The outcome of one maintenance step on one target (control plane, a worker pool, credentials).
export interface UpdateResult {
  /** "Updated Kubernetes version from ..." or the failure text. */
  readonly description: string;
  /** Why the update was attempted, e.g. "Kubernetes version expired - force update required". */
  readonly reason: string;
  readonly isSuccessful: boolean;
  /** The version before and after, for history and forecasts (absent for credentials). */
  readonly from?: string;
  readonly to?: string;
}
