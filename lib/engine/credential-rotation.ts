// Automatic credential rotations started by maintenance (Gardener:
// pkg/controllermanager/controller/shoot/maintenance/reconciler.go,
// computeCredentialsToRotationResults).
import type { Shoot } from "../gardener/types.ts";
import { parseTime } from "./classification.ts";
import { parseGoDuration } from "./go-duration.ts";
import type { UpdateResult } from "./update-result.ts";

export const OP_ROTATE_SSH = "rotate-ssh-keypair";
export const OP_ROTATE_OBSERVABILITY = "rotate-observability-credentials";
export const OP_ROTATE_ETCD = "rotate-etcd-encryption-key";

type CredentialKind = "sshKeypair" | "observability" | "etcdEncryptionKey";

/** Whether the configured rotation period has passed since the last completed rotation (or creation). */
function rotationDue(shoot: Shoot, kind: CredentialKind, now: number): boolean {
  const period = shoot.spec.maintenance?.autoRotation?.credentials?.[kind]?.rotationPeriod;
  if (period === undefined) return false;
  const periodMs = parseGoDuration(period);
  // Gardener only rotates for a period above zero: its API validation lets "0" through as "off"
  // (and refuses negative ones), and its maintenance unit test expects nothing for a zero period.
  if (periodMs === undefined || periodMs <= 0) return false;
  const last = shoot.status?.credentials?.rotation?.[kind]?.lastCompletionTime ?? shoot.metadata.creationTimestamp;
  const lastMs = parseTime(last);
  const since = Number.isNaN(lastMs) ? 0 : lastMs; // Go's zero time is long ago
  return since < now - periodMs;
}

/** Gardener's ShootEnablesSSHAccess: worker pools, and SSH access not switched off. */
export function sshAccessEnabled(shoot: Shoot): boolean {
  const workers = shoot.spec.provider?.workers ?? [];
  const settings = (shoot.spec.provider as { workersSettings?: { sshAccess?: { enabled?: boolean } } } | undefined)
    ?.workersSettings;
  return workers.length > 0 && settings?.sshAccess?.enabled !== false;
}

/** Rotation results keyed by the operation that starts them, in a fixed order. */
export function credentialRotations(shoot: Shoot, now: number): Map<string, UpdateResult> {
  const results = new Map<string, UpdateResult>();
  if (sshAccessEnabled(shoot) && rotationDue(shoot, "sshKeypair", now)) {
    results.set(OP_ROTATE_SSH, {
      description: "SSH keypair rotation started",
      reason: "Automatic rotation of SSH keypair configured",
      isSuccessful: true,
    });
  }
  if (rotationDue(shoot, "observability", now)) {
    results.set(OP_ROTATE_OBSERVABILITY, {
      description: "Observability passwords rotation started",
      reason: "Automatic rotation of observability passwords configured",
      isSuccessful: true,
    });
  }
  if (!shoot.spec.hibernation?.enabled && rotationDue(shoot, "etcdEncryptionKey", now)) {
    const phase = shoot.status?.credentials?.rotation?.etcdEncryptionKey?.phase ?? "";
    results.set(
      OP_ROTATE_ETCD,
      phase === "" || phase === "Completed"
        ? {
            description: "ETCD Encryption key rotation started",
            reason: "Automatic rotation of etcd encryption key configured",
            isSuccessful: true,
          }
        : {
            description: "Could not start ETCD encryption key rotation",
            reason: "ETCD encryption key rotation is already in progress",
            isSuccessful: false,
          },
    );
  }
  return results;
}
