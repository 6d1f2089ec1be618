// The registry mirrors panel and what a deletion leaves: a demo cluster's containerd mirrors are
// shown with the hosts.toml files they make, an upstream is added by keyboard (judged as typed,
// Save saying why it is off), saved and read back; the delete dialog of a cluster with a custom
// CSI driver lists what Gardener leaves (labelled shoot.gardener.cloud/no-cleanup=true) and the
// cleanup's grace periods, and is cancelled.
//
// Shoots used here (other journeys should leave them alone): the first demo shoot, by name, whose
// spec has a registry-mirror extension and whose name no other journey names (its mirrors are
// changed); read only, the first such shoot whose cleanup leaves something.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type APIRequestContext } from "@playwright/test";
import { screenshot } from "./support/screenshot";

type Ref = { namespace: string; name: string };
const api = (s: Ref) => `/api/v1/namespaces/${s.namespace}/shoots/${s.name}`;
const pageOf = (s: Ref) => `/shoots/${s.namespace}/${s.name}`;
const PHONE = { width: 390, height: 844 };

/** Every shoot name the other journeys mention: those are theirs. */
const othersNames = readdirSync(import.meta.dirname)
  .filter((f) => f.endsWith(".spec.ts") && f !== path.basename(import.meta.filename))
  .map((f) => readFileSync(path.join(import.meta.dirname, f), "utf8"))
  .join("\n");

async function shoots(request: APIRequestContext): Promise<Ref[]> {
  const list = (await (await request.get("/api/v1/shoots?limit=500&sort=name")).json()) as {
    items: { namespace: string; name: string }[];
  };
  return list.items.map((s) => ({ namespace: s.namespace, name: s.name }));
}

async function mirroredShoot(request: APIRequestContext): Promise<Ref> {
  for (const s of await shoots(request)) {
    if (othersNames.includes(`"${s.name}"`)) continue;
    const shoot = (await (await request.get(api(s))).json()) as {
      spec: { extensions?: { type: string }[] };
      metadata: { deletionTimestamp?: string };
    };
    if (shoot.spec.extensions?.some((e) => e.type === "registry-mirror") && !shoot.metadata.deletionTimestamp) return s;
  }
  throw new Error("no demo shoot with registry mirrors");
}

test.use({ viewport: { width: 1440, height: 1000 } });

test("the registry mirrors: shown with their hosts.toml, an upstream added by keyboard, saved", async ({
  page,
  request,
}, testInfo) => {
  // Looking through the demo's shoots for one with mirrors takes a while on a busy machine.
  test.setTimeout(90_000);
  const shoot = await mirroredShoot(request);
  await page.goto(pageOf(shoot));
  const panel = page.getByRole("region", { name: "containerd registry mirrors" });
  await panel.scrollIntoViewIfNeeded();
  await expect(panel.getByTestId("hosts-toml-preview")).toContainText("server = ");
  await screenshot(panel, testInfo, "registry-mirrors-panel");
  const before = (await panel.getByTestId("mirror").count()) as number;

  await panel.getByRole("button", { name: "Add an upstream registry" }).click();
  const upstream = panel.getByLabel(`Upstream registry ${before + 1}`);
  await upstream.focus();
  await page.keyboard.type("https://registry.k8s.io");
  await page.keyboard.press("Tab");
  await expect(panel).toContainText("must be a lowercase RFC 1123 subdomain");
  const save = panel.getByRole("button", { name: "Save mirrors" });
  await expect(save).toBeDisabled();
  await expect(panel).toContainText("Not ready to save.");

  await upstream.fill("registry.k8s.io");
  const host = panel.getByTestId("mirror").last().getByLabel("Mirror host 1 (URL)");
  await host.fill("k8s-mirror.example.com");
  await host.blur();
  await expect(panel).toContainText("url must start with 'http://' or 'https://' scheme");
  await host.fill("https://k8s-mirror.example.com");
  await panel
    .getByTestId("mirror")
    .last()
    .getByLabel(/resolve/)
    .check();
  await expect(panel.getByTestId("hosts-toml-preview")).toContainText(
    "/etc/containerd/certs.d/registry.k8s.io/hosts.toml",
  );
  await expect(panel.getByTestId("hosts-toml-preview")).toContainText('[host."https://k8s-mirror.example.com"]');
  await screenshot(panel, testInfo, "registry-mirrors-edited");

  await save.focus();
  await page.keyboard.press("Enter");
  await expect(panel.getByRole("status").filter({ hasText: "Saved." })).toBeVisible({ timeout: 15_000 });
  const stored = (await (await request.get(api(shoot))).json()) as {
    spec: { extensions: { type: string; providerConfig: { mirrors: { upstream: string }[] } }[] };
  };
  const mirrors = stored.spec.extensions.find((e) => e.type === "registry-mirror")!.providerConfig.mirrors;
  expect(mirrors.map((m) => m.upstream)).toContain("registry.k8s.io");
});

test.describe("on a phone, in the dark theme", () => {
  test.use({ viewport: PHONE, colorScheme: "dark" });

  test("the registry mirrors panel fits the screen", async ({ page, request }, testInfo) => {
    test.setTimeout(90_000);
    const shoot = await mirroredShoot(request);
    await page.goto(pageOf(shoot));
    const panel = page.getByRole("region", { name: "containerd registry mirrors" });
    await panel.scrollIntoViewIfNeeded();
    await expect(panel.getByTestId("hosts-toml-preview")).toBeVisible();
    // No sideways scrolling of the page once it has laid out (the timeline's chart measures late).
    await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    await screenshot(panel, testInfo, "registry-mirrors-phone-dark");
  });
});

for (const colorScheme of ["light", "dark"] as const) {
  test(`the delete dialog lists what Gardener leaves and the grace periods (${colorScheme})`, async ({
    page,
    request,
  }, testInfo) => {
    test.setTimeout(90_000);
    let found: Ref | undefined;
    for (const s of await shoots(request)) {
      const cleanup = (await (await request.get(`${api(s)}/cleanup`)).json()) as {
        noCleanup: { outcome: string; kind: string }[];
      };
      if (cleanup.noCleanup.some((r) => r.outcome === "spared" && r.kind === "VolumeSnapshot")) {
        found = s;
        break;
      }
    }
    expect(found, "a demo shoot whose cleanup leaves a VolumeSnapshot").toBeDefined();
    await page.emulateMedia({ colorScheme });
    await page.goto(pageOf(found!));
    await page.getByRole("group", { name: "Cluster operations" }).getByRole("button", { name: "Delete…" }).click();
    const dialog = page.getByRole("dialog", { name: `Delete ${found!.name}` });
    const preview = dialog.getByTestId("cleanup-preview");
    await expect(preview).toContainText("Gardener leaves these; you delete them yourself");
    await expect(preview.getByTestId("no-cleanup-list")).toContainText("VolumeSnapshot");
    await preview.getByText("Cleanup grace periods").click();
    await expect(preview.getByTestId("grace-periods")).toContainText("(default)");
    await screenshot(dialog, testInfo, `delete-dialog-no-cleanup-${colorScheme}`);
    await dialog.getByRole("button", { name: "Cancel" }).click();
    await expect(dialog).toBeHidden();
  });
}
