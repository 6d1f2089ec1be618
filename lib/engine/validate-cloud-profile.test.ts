// CloudProfile version rules (Gardener: pkg/api/core/validation/cloudprofile.go,
// ValidateCloudProfile).
import { describe, expect, it } from "vitest";
import type { CloudProfile, ExpirableVersion, MachineImage } from "../gardener/types.ts";
import type { FieldError } from "./field-error.ts";
import {
  prepareCloudProfileForCreate,
  validateCloudProfile,
  validateCloudProfileUpdate,
} from "./validate-cloud-profile.ts";

const NOW = Date.parse("2024-06-01T00:00:00Z");
const PAST = "2024-01-01T00:00:00Z";
const PAST2 = "2024-03-01T00:00:00Z";
const FUTURE = "2025-01-01T00:00:00Z";
const FUTURE2 = "2025-06-01T00:00:00Z";
const K8S = "spec.kubernetes.versions";

const image = (versions: MachineImage["versions"], extra: Partial<MachineImage> = {}): MachineImage => ({
  name: "gardenlinux",
  updateStrategy: "major",
  versions,
  ...extra,
});

function profile(kubernetes: ExpirableVersion[], machineImages?: MachineImage[]): CloudProfile {
  return {
    metadata: { name: "aws" },
    spec: { type: "aws", kubernetes: { versions: kubernetes }, ...(machineImages ? { machineImages } : {}) },
  };
}

const v = (version: string, extra: Partial<ExpirableVersion> = {}): ExpirableVersion => ({ version, ...extra });

/** "Type field" pairs, sorted, for exact comparisons. */
function summary(errors: readonly FieldError[]): string[] {
  return errors.map((e) => `${e.type} ${e.field}`).sort();
}

function validate(p: CloudProfile, gate?: boolean): FieldError[] {
  return validateCloudProfile(p, NOW, gate === undefined ? {} : { lifecycleGate: gate });
}

describe("validateCloudProfile: Kubernetes versions", () => {
  it("accepts a valid profile", () => {
    const p = profile(
      [
        v("1.30.1"),
        v("1.29.5", { classification: "supported" }),
        v("1.29.4", { classification: "deprecated", expirationDate: FUTURE }),
        v("1.28.9", { expirationDate: PAST }),
      ],
      [image([v("1.0.0"), v("1.1.0", { classification: "preview" })])],
    );
    expect(validate(p)).toEqual([]);
  });

  it("requires metadata.name", () => {
    const p = profile([v("1.30.1")]);
    p.metadata.name = "";
    expect(summary(validate(p))).toEqual(["Required metadata.name"]);
  });

  it("an empty list gives Required and Invalid spec.kubernetes.versions", () => {
    expect(summary(validate(profile([])))).toEqual([`Invalid ${K8S}`, `Required ${K8S}`]);
  });

  it("a missing kubernetes section is treated like an empty list", () => {
    const p = profile([]);
    (p.spec as { kubernetes?: unknown }).kubernetes = undefined;
    expect(summary(validate(p))).toEqual([`Invalid ${K8S}`, `Required ${K8S}`]);
  });

  it("a version that does not parse means no latest version can be found", () => {
    const errors = validate(profile([v("1.30.1"), v("1.29.x")]));
    expect(summary(errors)).toEqual([`Invalid ${K8S}`, `Invalid ${K8S}[1]`]);
    expect(errors.find((e) => e.field === K8S)?.detail).toBe(
      "failed to determine the latest kubernetes version from the cloud profile",
    );
  });

  it("the latest version (by semver, not list order) must not have an expirationDate, even in the future", () => {
    const errors = validate(profile([v("1.29.5"), v("1.30.1", { expirationDate: FUTURE }), v("1.30.0")]));
    expect(errors).toEqual([
      {
        type: "Invalid",
        field: `${K8S}[].expirationDate`,
        value: FUTURE,
        detail: "expiration date of latest kubernetes version ('1.30.1') must not be set",
      },
    ]);
  });

  it("the latest version is chosen across all classifications, preview included", () => {
    const errors = validate(profile([v("1.30.1"), v("1.31.0", { classification: "preview", expirationDate: FUTURE })]));
    expect(summary(errors)).toEqual([`Invalid ${K8S}[].expirationDate`]);
    expect(errors[0].detail).toBe("expiration date of latest kubernetes version ('1.31.0') must not be set");
  });

  it("older versions may have an expirationDate", () => {
    expect(
      validate(profile([v("1.30.1"), v("1.30.0", { expirationDate: PAST }), v("1.29.0", { expirationDate: FUTURE })])),
    ).toEqual([]);
  });

  it("the latest version's lifecycle must not end with an expired stage", () => {
    const latest = v("1.30.1", {
      lifecycle: [{ classification: "supported" }, { classification: "expired", startTime: FUTURE }],
    });
    expect(summary(validate(profile([v("1.29.0"), latest])))).toEqual([`Invalid ${K8S}[].lifecycle`]);
    const older = v("1.29.0", {
      lifecycle: [{ classification: "supported" }, { classification: "expired", startTime: FUTURE }],
    });
    expect(validate(profile([v("1.30.1"), older]))).toEqual([]);
    const deprecatedLast = v("1.30.1", {
      lifecycle: [{ classification: "supported" }, { classification: "deprecated", startTime: FUTURE }],
    });
    expect(validate(profile([deprecatedLast]))).toEqual([]);
  });

  it.each(["1.30", "v1.30.1", "1.30.1-rc.1", "1.30.1+build", "01.30", "1.30.1.2", " 1.30.1"])(
    "version %j must match the regex",
    (text) => {
      const errors = validate(profile([v("1.99.0"), v(text)]));
      const regex = errors.filter((e) => e.field === `${K8S}[1]`);
      expect(regex).toHaveLength(1);
      expect(regex[0]).toMatchObject({
        type: "Invalid",
        detail: "all Kubernetes versions must match the regex ^([0-9]+\\.){2}[0-9]+$",
      });
    },
  );

  it("duplicates are reported at the second (and later) occurrence only", () => {
    const errors = validate(profile([v("1.30.1"), v("1.29.0"), v("1.30.1"), v("1.30.1")]));
    expect(summary(errors)).toEqual([`Duplicate ${K8S}[2].version`, `Duplicate ${K8S}[3].version`]);
    expect(errors[0].value).toBe("1.30.1");
  });

  it("versions failing the regex are not counted as duplicates (as in Gardener)", () => {
    expect(summary(validate(profile([v("1.99.0"), v("1.30"), v("1.30")])))).toEqual([
      `Invalid ${K8S}[1]`,
      `Invalid ${K8S}[2]`,
    ]);
  });
});

describe("validateCloudProfile: each ExpirableVersion", () => {
  it("with the lifecycle gate off, any lifecycle gives only Forbidden ...lifecycle", () => {
    const bad = v("1.29.0", {
      classification: "bogus",
      expirationDate: PAST,
      lifecycle: [
        { classification: "expired", startTime: FUTURE },
        { classification: "nonsense" },
        { classification: "expired", startTime: PAST },
      ],
    });
    const errors = validate(profile([v("1.30.1"), bad]), false);
    expect(summary(errors)).toEqual([`Forbidden ${K8S}[1].lifecycle`]);
  });

  it("with the gate off, versions without a lifecycle are still fully checked", () => {
    const errors = validate(profile([v("1.30.1"), v("1.29.0", { classification: "bogus" })]), false);
    expect(summary(errors)).toEqual([`NotSupported ${K8S}[1].classification`]);
  });

  it("with the gate on (the default here), a valid lifecycle is accepted", () => {
    const lc = v("1.29.0", {
      lifecycle: [
        { classification: "preview" },
        { classification: "supported", startTime: PAST },
        { classification: "deprecated", startTime: FUTURE },
      ],
    });
    expect(validate(profile([v("1.30.1"), lc]))).toEqual([]);
    expect(validate(profile([v("1.30.1"), lc]), true)).toEqual([]);
  });

  it("the classification must be one of preview/supported/deprecated/expired", () => {
    for (const c of ["preview", "supported", "deprecated"]) {
      expect(validate(profile([v("1.30.1"), v("1.29.0", { classification: c })]))).toEqual([]);
    }
    const errors = validate(profile([v("1.30.1"), v("1.29.0", { classification: "Supported" })]));
    expect(summary(errors)).toEqual([`NotSupported ${K8S}[1].classification`]);
  });

  it("classification expired without a lifecycle is Forbidden", () => {
    expect(summary(validate(profile([v("1.30.1"), v("1.29.0", { classification: "expired" })])))).toEqual([
      `Forbidden ${K8S}[1].classification`,
    ]);
  });

  it("classification or expirationDate together with a lifecycle is Forbidden at the version path", () => {
    const lifecycle = [{ classification: "supported" }];
    expect(summary(validate(profile([v("1.30.1"), v("1.29.0", { classification: "deprecated", lifecycle })])))).toEqual(
      [`Forbidden ${K8S}[1]`],
    );
    expect(summary(validate(profile([v("1.30.1"), v("1.29.0", { expirationDate: FUTURE, lifecycle })])))).toEqual([
      `Forbidden ${K8S}[1]`,
    ]);
    // expired classification with a lifecycle: only the combination is reported.
    expect(summary(validate(profile([v("1.30.1"), v("1.29.0", { classification: "expired", lifecycle })])))).toEqual([
      `Forbidden ${K8S}[1]`,
    ]);
  });

  describe("lifecycle stages", () => {
    const lc = (...lifecycle: ExpirableVersion["lifecycle"] & object) =>
      validate(profile([v("1.30.1"), v("1.29.0", { lifecycle })]));
    const L = `${K8S}[1].lifecycle`;

    it("classifications must be valid", () => {
      expect(summary(lc({ classification: "supported" }, { classification: "retired", startTime: FUTURE }))).toEqual([
        `NotSupported ${L}[1].classification`,
      ]);
    });

    it("no duplicates", () => {
      const errors = lc({ classification: "supported" }, { classification: "supported", startTime: FUTURE });
      expect(summary(errors)).toEqual([`Duplicate ${L}[1].classification`]);
    });

    it("order preview < supported < deprecated < expired", () => {
      const errors = lc({ classification: "supported" }, { classification: "preview", startTime: FUTURE });
      expect(summary(errors)).toEqual([`Invalid ${L}[1].classification`]);
      expect(errors[0].detail).toMatch(/preview must be before supported$/);
      expect(summary(lc({ classification: "expired" }, { classification: "deprecated", startTime: FUTURE }))).toEqual([
        `Invalid ${L}[1].classification`,
      ]);
      expect(lc({ classification: "preview" }, { classification: "expired", startTime: FUTURE })).toEqual([]);
    });

    it("the order is checked between neighbours", () => {
      // deprecated -> preview is out of order; preview -> supported is fine.
      const errors = lc(
        { classification: "deprecated" },
        { classification: "preview", startTime: PAST },
        { classification: "supported", startTime: FUTURE },
      );
      expect(summary(errors)).toEqual([`Invalid ${L}[1].classification`]);
      expect(errors[0].detail).toMatch(/preview must be before deprecated$/);
    });

    it("a duplicate that is also out of order gets both errors", () => {
      const errors = lc(
        { classification: "preview" },
        { classification: "supported", startTime: PAST },
        { classification: "preview", startTime: FUTURE },
      );
      expect(summary(errors)).toEqual([`Duplicate ${L}[2].classification`, `Invalid ${L}[2].classification`]);
    });

    it("only the leading stage may omit startTime", () => {
      expect(lc({ classification: "preview" }, { classification: "supported", startTime: PAST })).toEqual([]);
      expect(summary(lc({ classification: "preview", startTime: PAST }, { classification: "supported" }))).toEqual([
        `Required ${L}[1]`,
      ]);
      expect(
        summary(lc({ classification: "preview" }, { classification: "supported" }, { classification: "deprecated" })),
      ).toEqual([`Required ${L}[1]`, `Required ${L}[2]`]);
    });

    it("a null or empty startTime is an omitted one: fine on the leading stage only", () => {
      const none = [null, ""] as unknown as string[];
      for (const startTime of none) {
        expect(lc({ classification: "preview", startTime }, { classification: "supported", startTime: PAST })).toEqual(
          [],
        );
        const errors = lc({ classification: "preview", startTime: PAST }, { classification: "supported", startTime });
        expect(summary(errors)).toEqual([`Required ${L}[1]`]);
        expect(errors[0].detail).toBe("only the leading lifecycle stage may omit the startTime");
      }
    });

    it("null legacy fields are absent ones: no conflict with a lifecycle, no expiry on the latest version", () => {
      const nulls = { classification: null, expirationDate: null } as unknown as Partial<ExpirableVersion>;
      expect(
        validate(
          profile([v("1.30.1", nulls), v("1.29.0", { ...nulls, lifecycle: [{ classification: "supported" }] })]),
        ),
      ).toEqual([]);
    });

    it("unavailable cannot be declared as a stage", () => {
      const errors = lc({ classification: "unavailable" }, { classification: "supported", startTime: PAST });
      expect(summary(errors)).toEqual([`NotSupported ${L}[0].classification`]);
      expect(errors[0].detail).toBe('supported values: "preview", "supported", "deprecated", "expired"');
    });

    it("start times must not decrease; equal start times are allowed", () => {
      expect(
        summary(
          lc({ classification: "supported", startTime: FUTURE }, { classification: "deprecated", startTime: PAST }),
        ),
      ).toEqual([`Invalid ${L}[1]`]);
      expect(
        lc({ classification: "supported", startTime: PAST }, { classification: "deprecated", startTime: PAST }),
      ).toEqual([]);
      expect(
        lc({ classification: "supported", startTime: PAST }, { classification: "deprecated", startTime: FUTURE }),
      ).toEqual([]);
    });

    it("start times are compared with the stage just before", () => {
      // FUTURE2 -> PAST decreases; PAST -> FUTURE does not.
      const errors = lc(
        { classification: "preview", startTime: FUTURE2 },
        { classification: "supported", startTime: PAST },
        { classification: "deprecated", startTime: FUTURE },
      );
      expect(summary(errors)).toEqual([`Invalid ${L}[1]`]);
    });

    it("machine image versions are checked by the same rules", () => {
      const p = profile(
        [v("1.30.1")],
        [
          image([
            v("1.0.0"),
            v("1.1.0", {
              lifecycle: [
                { classification: "supported", startTime: FUTURE },
                { classification: "preview", startTime: PAST },
              ],
            }),
          ]),
        ],
      );
      expect(summary(validate(p))).toEqual([
        "Invalid spec.machineImages[0].versions[1].lifecycle[1]",
        "Invalid spec.machineImages[0].versions[1].lifecycle[1].classification",
      ]);
      expect(summary(validate(p, false))).toEqual(["Forbidden spec.machineImages[0].versions[1].lifecycle"]);
      const expired = profile([v("1.30.1")], [image([v("1.0.0", { classification: "expired" })])]);
      expect(summary(validate(expired))).toEqual(["Forbidden spec.machineImages[0].versions[0].classification"]);
    });
  });
});

describe("validateCloudProfile: one supported version per minor", () => {
  const detailOf = (e: FieldError) => e.detail;

  it("two legacy-supported patches of one minor are both flagged", () => {
    const errors = validate(
      profile([
        v("1.30.1"),
        v("1.29.5", { classification: "supported" }),
        v("1.29.4", { classification: "supported" }),
      ]),
    );
    expect(summary(errors)).toEqual([`Forbidden ${K8S}[1]`, `Forbidden ${K8S}[2]`]);
    expect(errors.map(detailOf).join("\n")).toContain("1.29.5");
  });

  it("three supported patches give two errors per version", () => {
    const errors = validate(
      profile([
        v("1.30.1"),
        v("1.29.5", { classification: "supported" }),
        v("1.29.4", { classification: "supported" }),
        v("1.29.3", { classification: "supported" }),
      ]),
    );
    expect(summary(errors)).toEqual([
      `Forbidden ${K8S}[1]`,
      `Forbidden ${K8S}[1]`,
      `Forbidden ${K8S}[2]`,
      `Forbidden ${K8S}[2]`,
      `Forbidden ${K8S}[3]`,
      `Forbidden ${K8S}[3]`,
    ]);
  });

  it("other minors and other majors do not count", () => {
    expect(
      validate(
        profile([
          v("2.29.0", { classification: "supported" }),
          v("1.29.5", { classification: "supported" }),
          v("1.28.4", { classification: "supported" }),
        ]),
      ),
    ).toEqual([]);
  });

  it("unclassified and deprecated/preview peers do not count", () => {
    expect(
      validate(
        profile([
          v("1.30.1"),
          v("1.29.5", { classification: "supported" }),
          v("1.29.4"),
          v("1.29.3", { classification: "deprecated" }),
          v("1.29.2", { classification: "preview" }),
        ]),
      ),
    ).toEqual([]);
  });

  it("a legacy-supported version with an expirationDate in the past is not checked, but still counts as a peer", () => {
    const errors = validate(
      profile([
        v("1.30.1"),
        v("1.29.5", { classification: "supported" }),
        v("1.29.4", { classification: "supported", expirationDate: PAST }),
      ]),
    );
    expect(summary(errors)).toEqual([`Forbidden ${K8S}[1]`]);
  });

  it("a legacy-supported version expiring in the future is still checked", () => {
    const errors = validate(
      profile([
        v("1.30.1"),
        v("1.29.5", { classification: "supported" }),
        v("1.29.4", { classification: "supported", expirationDate: FUTURE }),
      ]),
    );
    expect(summary(errors)).toEqual([`Forbidden ${K8S}[1]`, `Forbidden ${K8S}[2]`]);
  });

  it("a lifecycle peer that declares supported counts, even if it has already expired; lifecycle-only versions are never checked", () => {
    const peer = v("1.29.4", {
      lifecycle: [{ classification: "supported" }, { classification: "expired", startTime: PAST }],
    });
    const errors = validate(profile([v("1.30.1"), v("1.29.5", { classification: "supported" }), peer]));
    expect(summary(errors)).toEqual([`Forbidden ${K8S}[1]`]);
  });

  it("two lifecycle-only supported versions of one minor are not flagged", () => {
    const a = v("1.29.5", { lifecycle: [{ classification: "supported" }] });
    const b = v("1.29.4", { lifecycle: [{ classification: "supported" }] });
    expect(validate(profile([v("1.30.1"), a, b]))).toEqual([]);
  });

  it("a lifecycle peer without a supported stage does not count", () => {
    const peer = v("1.29.4", {
      lifecycle: [{ classification: "preview" }, { classification: "deprecated", startTime: PAST }],
    });
    expect(validate(profile([v("1.30.1"), v("1.29.5", { classification: "supported" }), peer]))).toEqual([]);
  });

  it("applies within each machine image, not across images", () => {
    const p = profile(
      [v("1.30.1")],
      [
        image([
          v("1.0.0", { classification: "supported" }),
          v("1.0.1", { classification: "supported" }),
          v("1.1.0", { classification: "supported" }),
        ]),
        image([v("1.0.2", { classification: "supported" })], { name: "ubuntu" }),
      ],
    );
    expect(summary(validate(p))).toEqual([
      "Forbidden spec.machineImages[0].versions[0]",
      "Forbidden spec.machineImages[0].versions[1]",
    ]);
  });
});

describe("validateCloudProfile: machine images", () => {
  it("each image needs at least one version", () => {
    const errors = validate(profile([v("1.30.1")], [image([])]));
    expect(summary(errors)).toEqual(["Required spec.machineImages[0].versions"]);
  });

  it("version strings must parse as (loose) semver", () => {
    expect(validate(profile([v("1.30.1")], [image([v("1"), v("1.2"), v("v1.2.3"), v("1.2.3-rc.1+b")])]))).toEqual([]);
    const errors = validate(profile([v("1.30.1")], [image([v("1.0.0"), v("latest"), v("1.2.3.4")])]));
    expect(summary(errors)).toEqual([
      "Invalid spec.machineImages[0].versions[1].version",
      "Invalid spec.machineImages[0].versions[2].version",
    ]);
  });

  it("<name>-<version> must not repeat within an image", () => {
    const errors = validate(profile([v("1.30.1")], [image([v("1.0.0"), v("1.1.0"), v("1.0.0")])]));
    expect(summary(errors)).toEqual(["Duplicate spec.machineImages[0].versions[2]"]);
    expect(errors[0].value).toBe("gardenlinux-1.0.0");
  });

  it("<name>-<version> must not repeat across images of the same name", () => {
    const errors = validate(
      profile(
        [v("1.30.1")],
        [image([v("1.0.0")]), image([v("1.0.0")], { name: "ubuntu" }), image([v("2.0.0"), v("1.0.0")])],
      ),
    );
    expect(summary(errors)).toEqual(["Duplicate spec.machineImages[2].versions[1]"]);
  });

  it("updateStrategy must be patch, minor or major (a missing one is defaulted to major by the API)", () => {
    for (const s of ["patch", "minor", "major", undefined]) {
      expect(validate(profile([v("1.30.1")], [image([v("1.0.0")], { updateStrategy: s })]))).toEqual([]);
    }
    const errors = validate(profile([v("1.30.1")], [image([v("1.0.0")], { updateStrategy: "Major" })]));
    expect(summary(errors)).toEqual(["NotSupported spec.machineImages[0].updateStrategy"]);
  });

  it("the latest image version MAY have an expirationDate", () => {
    expect(
      validate(
        profile([v("1.30.1")], [image([v("2.0.0", { expirationDate: FUTURE }), v("1.0.0", { expirationDate: PAST })])]),
      ),
    ).toEqual([]);
  });
});

describe("validateCloudProfileUpdate", () => {
  const DETAIL = "a version cannot be turned unavailable if it was already moved into a later lifecycle stage";
  const unavailable = (version: string) =>
    v(version, { lifecycle: [{ classification: "supported", startTime: FUTURE }] });

  it("an active version must not become unavailable", () => {
    const errors = validateCloudProfileUpdate(
      profile([v("1.30.1"), v("1.29.0")]),
      profile([v("1.30.1"), unavailable("1.29.0")]),
      NOW,
    );
    expect(errors).toEqual([{ type: "Forbidden", field: `${K8S}[1]`, detail: DETAIL }]);
  });

  it("a deprecated or expired version must not become unavailable either", () => {
    const old = profile([
      v("1.30.1"),
      v("1.29.0", { classification: "deprecated" }),
      v("1.28.0", { expirationDate: PAST }),
    ]);
    const next = profile([v("1.30.1"), unavailable("1.29.0"), unavailable("1.28.0")]);
    expect(summary(validateCloudProfileUpdate(old, next, NOW))).toEqual([`Forbidden ${K8S}[1]`, `Forbidden ${K8S}[2]`]);
  });

  it("an unavailable version may stay unavailable; new and removed versions are not checked", () => {
    expect(
      validateCloudProfileUpdate(
        profile([v("1.30.1"), unavailable("1.31.0")]),
        profile([unavailable("1.31.0"), unavailable("1.32.0")]),
        NOW,
      ),
    ).toEqual([]);
  });

  it("lifecycle changes that keep the version available are fine", () => {
    const next = profile([
      v("1.30.1"),
      v("1.29.0", { lifecycle: [{ classification: "supported" }, { classification: "expired", startTime: PAST }] }),
    ]);
    expect(validateCloudProfileUpdate(profile([v("1.30.1"), v("1.29.0")]), next, NOW)).toEqual([]);
  });

  it("checks machine images matched by name, with the new profile's indices", () => {
    const old = profile([v("1.30.1")], [image([v("1.0.0")], { name: "ubuntu" }), image([v("1.0.0"), v("1.1.0")])]);
    const next = profile(
      [v("1.30.1")],
      [image([v("1.1.0"), unavailable("1.0.0")]), image([unavailable("1.0.0")], { name: "suse" })],
    );
    expect(validateCloudProfileUpdate(old, next, NOW)).toEqual([
      { type: "Forbidden", field: "spec.machineImages[0].versions[1]", detail: DETAIL },
    ]);
  });
});

describe("prepareCloudProfileForCreate", () => {
  const p = profile(
    [
      v("1.30.1"),
      v("1.29.5", { classification: "deprecated" }),
      v("1.29.4", { expirationDate: PAST }),
      v("1.29.3", { expirationDate: FUTURE }),
      v("1.28.0", { lifecycle: [{ classification: "supported", startTime: FUTURE }] }),
      v("1.31.0", { classification: "preview" }),
      v("1.27.0", {
        lifecycle: [
          { classification: "preview", startTime: PAST },
          { classification: "expired", startTime: PAST2 },
        ],
      }),
    ],
    [
      image([
        v("1.0.0", { expirationDate: PAST }),
        v("1.1.0", { lifecycle: [{ classification: "supported", startTime: FUTURE }] }),
        v("1.2.0", { expirationDate: FUTURE }),
        v("1.3.0"),
      ]),
    ],
  );

  it("drops expired and unavailable Kubernetes versions", () => {
    const out = prepareCloudProfileForCreate(p, NOW);
    expect(out.spec.kubernetes.versions.map((x) => x.version)).toEqual(["1.30.1", "1.29.5", "1.29.3", "1.31.0"]);
  });

  it("drops expired machine image versions but keeps unavailable ones", () => {
    const out = prepareCloudProfileForCreate(p, NOW);
    expect(out.spec.machineImages?.[0].versions.map((x) => x.version)).toEqual(["1.1.0", "1.2.0", "1.3.0"]);
  });

  it("does not modify its input and keeps everything else", () => {
    const before = JSON.stringify(p);
    const out = prepareCloudProfileForCreate(p, NOW);
    expect(JSON.stringify(p)).toBe(before);
    expect(out.metadata).toEqual(p.metadata);
    expect(out.spec.type).toBe("aws");
    expect(out.spec.machineImages?.[0].updateStrategy).toBe("major");
  });

  it("an expiry exactly now is not expired yet", () => {
    const out = prepareCloudProfileForCreate(
      profile([v("1.30.1"), v("1.29.0", { expirationDate: "2024-06-01T00:00:00Z" })]),
      NOW,
    );
    expect(out.spec.kubernetes.versions).toHaveLength(2);
  });
});
