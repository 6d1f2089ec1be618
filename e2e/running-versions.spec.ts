// What runs vs what is asked: with confineSpecUpdateRollout, a new Kubernetes version set on the
// lifecycle page waits for the next maintenance window, and the header, the outlook, the version
// timeline, the fleet row, the shoot export and the forecast all show the running version and the
// asked one apart, with the window's time in local time and UTC.
//
// Shoots used here (other journeys should leave them alone):
//   garden-analytics/stream-ingest-eu   its Kubernetes version updated; the rollout waits for the window
import { expect, test } from "@playwright/test";
import { screenshot } from "./support/screenshot";

const SHOOT = { namespace: "garden-analytics", name: "stream-ingest-eu" };
const api = `/api/v1/namespaces/${SHOOT.namespace}/shoots/${SHOOT.name}`;

test.use({ timezoneId: "Europe/Berlin", viewport: { width: 1440, height: 1000 } });

/** "25 Nov, 02:00 UTC", as the pages write a moment in UTC. */
const utcShort = (at: string) =>
  `${new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "short", hour: "2-digit", minute: "2-digit", timeZone: "UTC" }).format(Date.parse(at))} UTC`;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

test("a version held for the window shows as running and asked apart, on every page", async ({
  page,
  request,
}, testInfo) => {
  const before = (await (await request.get(api)).json()) as {
    spec: { kubernetes: { version: string }; maintenance?: { confineSpecUpdateRollout?: boolean } };
  };
  expect(before.spec.maintenance?.confineSpecUpdateRollout).toBe(true);
  const running = before.spec.kubernetes.version;

  // Set a new version on the lifecycle page.
  await page.goto(`/shoots/${SHOOT.namespace}/${SHOOT.name}`);
  await expect(page.getByTestId("running-kubernetes")).toHaveText(running);
  await page.getByRole("button", { name: "Update version" }).click();
  const dialog = page.getByRole("dialog", { name: "Update the Kubernetes version" });
  const target = dialog.getByRole("radio").first();
  await expect(target).toBeVisible();
  const asked = (await target.getAttribute("value"))!;
  await target.check();
  const typedName = dialog.getByLabel(/Type the cluster name/);
  if (await typedName.isVisible()) await typedName.fill(SHOOT.name);
  await dialog.getByRole("button", { name: `Update to ${asked}` }).click();
  await expect(dialog.getByRole("status")).toContainText(`Saved: Kubernetes ${running} → ${asked}`);
  await dialog.getByRole("button", { name: "Done" }).click();

  const plan = (await (await request.get(`${api}/maintenance-plan`)).json()) as {
    window: { begin: string };
    rollout: { when: string; changes: { target: string; running: string; asked: string }[] } | null;
  };
  expect(plan.rollout?.when).toBe("window");
  expect(plan.rollout?.changes).toEqual([expect.objectContaining({ target: "controlPlane", running, asked })]);
  const when = new RegExp(`^in the next window \\(.+ local · ${escape(utcShort(plan.window.begin))}\\)$`);

  // The header: what runs, then what is asked and when it will run.
  await expect(page.getByTestId("asked-kubernetes")).toHaveText(asked);
  await expect(page.getByTestId("running-kubernetes")).toHaveText(running);
  await expect(page.getByTestId("rollout-when")).toHaveText(when);
  await expect(page.getByTestId("shoot-versions")).toContainText(`Kubernetes ${running}`);

  // The outlook lists the held rollout as the next window's change.
  const held = page.getByTestId("pending-rollout");
  await expect(held).toContainText("The next window rolls out 1 change held for it");
  await expect(held).toContainText(`Control plane: Kubernetes ${running} → ${asked}`);
  await expect(page.getByText("The next window changes no version")).toHaveCount(0);

  // The timeline (its table for screen readers): the lane runs the old version, up to now and
  // back into the past, and the held rollout brings the asked one at the window.
  const timeline = page.locator("table").filter({ hasText: "Version timeline as a table" });
  const lane = timeline
    .getByRole("row")
    .filter({ has: page.getByRole("rowheader", { name: `Control plane, Kubernetes ${running}`, exact: true }) });
  await expect(lane).toContainText(`Held rollout → ${asked}`);
  // The running version's band reaches up to now: before it come the versions the shoot ran
  // earlier (the demo's last window may already have updated it, depending on the hour the
  // landscape was made), and right after it the asked one (a forced update may follow that,
  // when it expires within the timeline).
  const bands = lane.getByRole("cell").first().getByRole("listitem");
  await expect(bands.filter({ hasText: `${running}:` })).not.toHaveCount(0);
  const versions = (await bands.allTextContents()).map((text) => text.split(":")[0]);
  expect(versions[versions.lastIndexOf(running) + 1]).toBe(asked);

  // A pool's machine image, changed through the API, waits for the window as well.
  const current = (await (await request.get(api)).json()) as {
    metadata: { resourceVersion: string };
    spec: {
      cloudProfileName?: string;
      cloudProfile?: { kind?: string; name: string };
      provider: { workers: { name: string; machine: { image: { name: string; version: string } } }[] };
    };
  };
  const pool = current.spec.provider.workers[0];
  type ProfileSpec = { machineImages: { name: string; versions: { version: string; expirationDate?: string }[] }[] };
  // The shoot's profile as Gardener reads it: a NamespacedCloudProfile through its merged status.
  const reference = current.spec.cloudProfile ?? { kind: "CloudProfile", name: current.spec.cloudProfileName! };
  const profileSpec =
    reference.kind === "NamespacedCloudProfile"
      ? (
          (await (
            await request.get(`/api/v1/namespaces/${SHOOT.namespace}/namespacedcloudprofiles/${reference.name}`)
          ).json()) as { status: { cloudProfileSpec: ProfileSpec } }
        ).status.cloudProfileSpec
      : ((await (await request.get(`/api/v1/cloudprofiles/${reference.name}`)).json()) as { spec: ProfileSpec }).spec;
  const imageRan = pool.machine.image.version;
  const imageAsked = profileSpec.machineImages
    .find((m) => m.name === pool.machine.image.name)!
    .versions.find(
      (v) => v.version !== imageRan && (!v.expirationDate || Date.parse(v.expirationDate) > Date.now()),
    )!.version;
  const patched = await request.patch(api, {
    headers: { "content-type": "application/merge-patch+json" },
    data: {
      metadata: { resourceVersion: current.metadata.resourceVersion },
      spec: {
        provider: {
          workers: [{ name: pool.name, machine: { image: { name: pool.machine.image.name, version: imageAsked } } }],
        },
      },
    },
  });
  expect(patched.status(), await patched.text()).toBe(200);
  const poolLine = page.getByTestId("pending-pool-rollouts");
  await expect(poolLine).toContainText(
    `Pool "${pool.name}": machine image ${pool.machine.image.name} ${imageRan} → ${imageAsked} in the next window`,
  );
  await expect(held).toContainText("The next window rolls out 2 changes held for it");
  const imageLane = timeline.getByRole("row").filter({
    has: page.getByRole("rowheader", {
      name: `Pool "${pool.name}", ${pool.machine.image.name} ${imageRan}`,
      exact: true,
    }),
  });
  await expect(imageLane).toContainText(`Held rollout → ${imageAsked}`);
  await screenshot(page, testInfo, "running-versions-shoot.png");

  // The fleet row: the running version, the asked one, and the window's badge.
  await page.goto(`/shoots?q=${SHOOT.name}`);
  const row = page.locator(`[data-shoot="${SHOOT.namespace}/${SHOOT.name}"]`);
  const version = row.getByTestId("pending-version");
  await expect(version).toHaveText(
    new RegExp(`^${escape(running)}runs now; asked for the next window:→${escape(asked)}$`),
  );
  await expect(version).toHaveAttribute(
    "title",
    new RegExp(`^Runs ${escape(running)} .*the spec asks for ${escape(asked)}`),
  );
  await expect(row).toContainText("Rollout pending");
  await expect(row.getByTestId("pending-image")).toHaveText(`${imageRan} runs now; asked: → ${imageAsked}`);
  await screenshot(row, testInfo, "running-versions-fleet-row");

  // The export says both.
  const csv = await (await request.get(`/api/v1/shoots/export?format=csv&q=${SHOOT.name}`)).text();
  const [header, line] = csv.trim().split("\n");
  const columns = header.split(",");
  const cells = line.split(",");
  expect(cells[columns.indexOf("kubernetes_version")]).toBe(asked);
  expect(cells[columns.indexOf("kubernetes_running_version")]).toBe(running);
  expect(cells[columns.indexOf("rollout_when")]).toBe("window");

  // The forecast counts the held rollout as an update in that window.
  const forecast = (await (await request.get(`/api/v1/forecast?days=30&namespace=${SHOOT.namespace}`)).json()) as {
    items: { name: string; target: string; from: string; to?: string; held?: boolean; window: { begin: string } }[];
  };
  const heldItems = forecast.items.filter((i) => i.name === SHOOT.name && i.held);
  expect(heldItems.map((i) => [i.target, i.from, i.to])).toEqual([
    ["controlPlane", running, asked],
    ["worker", imageRan, imageAsked],
  ]);
  expect(Date.parse(heldItems[0].window.begin)).toBe(Date.parse(plan.window.begin));
  await page.goto("/forecast?days=30");
  const heldRows = page.locator("tr[data-held]").filter({ hasText: SHOOT.name });
  await expect(heldRows).toHaveCount(2);
  await expect(heldRows.filter({ hasText: "Control plane" })).toContainText(`${running}${asked}`);
  await expect(heldRows.filter({ hasText: `Pool ${pool.name}` })).toContainText(`${imageRan}${imageAsked}`);
  await expect(heldRows.first()).toContainText("Will roll out");
  await expect(page.getByTestId("held-rollouts")).toContainText(/held rollouts? on \d+ shoots?/);
  await screenshot(page, testInfo, "running-versions-forecast.png");
});
