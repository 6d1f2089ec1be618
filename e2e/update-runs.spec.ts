// Update runs (issue 29). First the live view and the list on stand-in answers the simulated
// garden does not give on demand (a health gate held by two clusters, an approval awaited): what
// each stage waits for, in words, and which actions the run's state allows. GET
// /api/v1/update-runs* is answered by the page's network stand-in (page.route) with answers of
// the API's schema; everything else is the real server. Light and dark, desktop and phone.
import { expect, test, type Page } from "@playwright/test";
import type { UpdateRunAnswer, UpdateRunListAnswer } from "../lib/api/update-runs";
import { expectNoSeriousA11yViolations } from "./support/axe";
import { screenshot } from "./support/screenshot";

const PHONE = { width: 390, height: 844 };
test.use({ viewport: { width: 1440, height: 900 } });
const MINUTE = 60_000;
// Two journeys, three pages each, in two themes and at two widths, on a machine others share.
test.setTimeout(180_000);

const HELD_ID = "0b9c0f5e-3b7e-4a51-9d7c-2f4d8f1a6c01";
const APPROVAL_ID = "5a1e2d3c-4b5a-4c6d-8e7f-9a0b1c2d3e4f";

function standInRuns(now: number): { held: UpdateRunAnswer; approval: UpdateRunAnswer } {
  const at = (minutes: number) => new Date(now + minutes * MINUTE).toISOString();
  const done = (namespace: string, name: string) => ({
    namespace,
    name,
    state: "Succeeded" as const,
    message: "Kubernetes 1.31.4 → 1.32.2",
  });
  const base = {
    target: { kubernetes: "1.32" },
    healthGate: { healthySeconds: 600 },
    actor: "ops@example.com",
    createdAt: at(-40),
    startedAt: at(-40),
    total: 5,
  };
  const held: UpdateRunAnswer = {
    ...base,
    id: HELD_ID,
    name: "Kubernetes 1.32, canary first",
    state: "Paused",
    message: "Paused: the health gate of stage canary is held by 2 clusters.",
    expectedEnd: at(95),
    stages: [
      {
        name: "canary",
        when: "now",
        soakSeconds: 1800,
        approval: false,
        state: "Gating",
        startedAt: at(-40),
        holding: [
          { namespace: "garden-dev", name: "api-canary", reason: "Unhealthy: EveryNodeReady is False" },
          { namespace: "garden-dev", name: "web-canary", reason: "last operation Failed" },
        ],
        items: [
          done("garden-dev", "api-canary"),
          done("garden-dev", "web-canary"),
          { namespace: "garden-dev", name: "jobs-canary", state: "Failed", message: "The reconcile failed: quota." },
        ],
      },
      {
        name: "production",
        when: "window",
        soakSeconds: 0,
        approval: true,
        state: "Pending",
        items: [
          { namespace: "garden-prod", name: "api", state: "Pending", dueAt: at(300) },
          { namespace: "garden-prod", name: "web", state: "Pending", dueAt: at(420) },
        ],
      },
    ],
  };
  const approval: UpdateRunAnswer = {
    ...base,
    id: APPROVAL_ID,
    name: "Machine images, November",
    target: { machineImage: { name: "gardenlinux", version: "1592.3.0" } },
    state: "WaitingForApproval",
    message: "Waiting for approval of stage production.",
    stages: [
      {
        name: "canary",
        when: "now",
        soakSeconds: 600,
        approval: false,
        state: "Succeeded",
        startedAt: at(-40),
        finishedAt: at(-5),
        items: [done("garden-dev", "api-canary"), done("garden-dev", "web-canary"), done("garden-dev", "jobs-canary")],
      },
      {
        name: "production",
        when: "now",
        soakSeconds: 0,
        approval: true,
        state: "WaitingForApproval",
        items: [
          { namespace: "garden-prod", name: "api", state: "Pending" },
          { namespace: "garden-prod", name: "web", state: "Pending" },
        ],
      },
    ],
  };
  return { held, approval };
}

async function standIn(page: Page, runs: readonly UpdateRunAnswer[]) {
  await page.route("**/api/v1/update-runs**", async (route) => {
    const url = new URL(route.request().url());
    const run = runs.find((r) => url.pathname.startsWith(`/api/v1/update-runs/${r.id}`));
    if (route.request().method() !== "GET") return route.fulfill({ status: run ? 202 : 404, json: run ?? {} });
    if (url.pathname === "/api/v1/update-runs") {
      const list: UpdateRunListAnswer = {
        items: runs.map(({ stages: _stages, ...summary }) => summary),
        nextCursor: null,
      };
      return route.fulfill({ json: list });
    }
    return run ? route.fulfill({ json: run }) : route.fulfill({ status: 404, json: { title: "Not Found" } });
  });
}

test("the live view says what each stage waits for and allows only what the run's state allows", async ({
  page,
}, testInfo) => {
  const { held, approval } = standInRuns(Date.now());
  await standIn(page, [approval, held]);

  // The list: newest first, each run's state and what it waits for.
  await page.goto("/update-runs");
  await expect(page.getByRole("heading", { level: 1, name: "Update runs" })).toBeVisible();
  const heldRow = page.locator(`[data-run-id="${HELD_ID}"]`);
  await expect(heldRow).toContainText("Paused");
  await expect(heldRow).toContainText("the health gate of stage canary is held by 2 clusters");
  await expect(heldRow).toContainText("3 of 5 clusters");
  await expect(page.locator(`[data-run-id="${APPROVAL_ID}"]`)).toContainText("Waiting for approval");
  await expectNoSeriousA11yViolations(page, "the update runs list");
  await screenshot(page, testInfo, "update-runs-list-1440");

  // A run held by its health gate: the clusters that hold it, named; resume and cancel only.
  await heldRow.getByRole("link", { name: held.name }).click();
  await expect(page).toHaveURL(`/update-runs/${HELD_ID}`);
  await expect(page.getByTestId("run-state")).toHaveText("Paused");
  const canary = page.locator('[data-stage="canary"]');
  await expect(canary.getByTestId("stage-waits")).toHaveText(
    "Health gate: 2 clusters hold it: garden-dev/api-canary (Unhealthy: EveryNodeReady is False), garden-dev/web-canary (last operation Failed).",
  );
  const production = page.locator('[data-stage="production"]');
  // Not begun: it waits for the canary, which says what it waits for; its clusters' windows are known.
  await expect(production.getByTestId("stage-waits")).toHaveCount(0);
  await expect(production.locator('[data-item="garden-prod/api"]')).toContainText("Its window");
  await expect(production).toContainText("Needs approval");
  await expect(page.getByRole("button", { name: "Resume" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Cancel run" })).toBeEnabled();
  await expect(page.getByRole("button", { name: "Approve" })).toBeDisabled();
  await expect(page.getByRole("button", { name: "Approve" })).toHaveAccessibleDescription(
    "Nothing waits for approval: the run is paused.",
  );
  await expect(page.getByRole("button", { name: "Pause" })).toHaveAccessibleDescription("The run is already paused.");
  await expectNoSeriousA11yViolations(page, "a paused update run");
  await screenshot(page, testInfo, "update-run-held-1440");

  // Cancelling asks first, says what stays, and Escape keeps the run going.
  await page.getByRole("button", { name: "Cancel run" }).click();
  const confirm = page.getByRole("dialog", { name: "Cancel this run?" });
  await expect(confirm).toContainText("Gardener does not roll an update back");
  await expect(confirm.getByRole("button", { name: "Keep running" })).toBeFocused();
  await expectNoSeriousA11yViolations(page, "the cancel dialog", confirm);
  await page.keyboard.press("Escape");
  await expect(confirm).toBeHidden();

  // A run waiting for approval: approve, pause and cancel; the approval dialog names the stage.
  await page.goto(`/update-runs/${APPROVAL_ID}`);
  await expect(page.getByTestId("run-state")).toHaveText("Waiting for approval");
  await expect(page.locator('[data-stage="production"]').getByTestId("stage-waits")).toHaveText(
    "Waiting for approval before it starts.",
  );
  await expect(page.getByRole("button", { name: "Resume" })).toBeDisabled();
  await page.getByRole("button", { name: "Approve" }).click();
  const approve = page.getByRole("dialog", { name: "Approve the stage production?" });
  await expect(approve).toContainText("starts on its 2 clusters now");
  await screenshot(page, testInfo, "update-run-approve-dialog");
  await approve.getByRole("button", { name: "Back" }).click();

  // Dark, and on a phone: no sideways scrolling of the page.
  await page.emulateMedia({ colorScheme: "dark" });
  await page.goto(`/update-runs/${HELD_ID}`);
  await expect(page.getByTestId("run-state")).toHaveText("Paused");
  await expectNoSeriousA11yViolations(page, "a paused update run, dark");
  await screenshot(page, testInfo, "update-run-held-dark");
  await page.setViewportSize(PHONE);
  await expect(canary.getByTestId("stage-waits")).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  await screenshot(page, testInfo, "update-run-held-390-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await screenshot(page, testInfo, "update-run-held-390");
  await page.goto("/update-runs");
  await expect(heldRow).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  await screenshot(page, testInfo, "update-runs-list-390");

  // A fleet page's query string starts the new run's first stage with its filter.
  await page.goto("/update-runs/new?project=sandbox&status=healthy&sort=-name");
  const stage = page.locator('[data-stage-editor="0"]');
  await expect(stage.getByLabel("Project")).toHaveValue("sandbox");
  await expect(stage.getByLabel("Status")).toHaveValue("healthy");
  await expect(stage.getByTestId("stage-selects")).toHaveText(/^Selects \d+ clusters? now\./);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
});

// The journey, on the real server and its simulated garden. Shoots changed here (other journeys
// leave them alone): garden-sandbox/scratch-demo (stage one, selected by a filter) and
// garden-sandbox/hackathon-trial (stage two, named), each maintained now once.
const CANARY = { namespace: "garden-sandbox", name: "scratch-demo" };
const SECOND = { namespace: "garden-sandbox", name: "hackathon-trial" };
const RUN_NAME = "E2E two-stage maintenance";

test("a run selected by filter is previewed, started, approved, watched to its end and found in the history", async ({
  page,
}, testInfo) => {
  await page.goto("/shoots");
  await page.getByRole("navigation").getByRole("link", { name: "Update runs", exact: true }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Update runs" })).toBeVisible();
  await page.getByRole("link", { name: "New update run" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "New update run" })).toBeVisible();

  // Previewing an empty form names what is missing beside its field.
  await page.getByRole("button", { name: "Preview", exact: true }).click();
  await expect(page.getByLabel("Run name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByRole("button", { name: "Start run" })).toBeDisabled();

  await page.getByLabel("Run name").fill(RUN_NAME);
  await expect(page.getByRole("radio", { name: /^Maintain now/ })).toBeChecked();

  // Stage one by the fleet's filters: sandbox's healthy "scratch" clusters, one of them.
  const first = page.locator('[data-stage-editor="0"]');
  await first.getByLabel("Stage 1 name").fill("canary");
  await first.getByLabel("Project").selectOption("sandbox");
  await first.getByLabel("Status").selectOption("healthy");
  await first.getByLabel("Search").fill("scratch-demo");
  await expect(first.getByTestId("stage-selects")).toHaveText(/^Selects 1 cluster now\./);

  // Stage two named, approved before it starts.
  await page.getByRole("button", { name: "Add a stage" }).click();
  const second = page.locator('[data-stage-editor="1"]');
  await second.getByLabel("Stage 2 name").fill("production");
  await second.getByRole("button", { name: "A list" }).click();
  await second.getByLabel("Clusters, as namespace/name").fill(`${SECOND.namespace}/${SECOND.name}`);
  await expect(second).toContainText("1 cluster.");
  await second.getByRole("checkbox", { name: /Ask for approval before it starts/ }).check();

  // A small health gate: the simulated gardenlet reconciles in a second or two.
  await page.getByRole("checkbox", { name: /After each stage, wait until its clusters are healthy/ }).check();
  await page.getByLabel("Healthy for", { exact: true }).fill("2");
  await page.getByLabel("Healthy for: unit").selectOption("seconds");

  // The preview: both stages, each cluster's planned moment and what the run does there.
  await page.getByRole("button", { name: "Preview", exact: true }).click();
  const preview = page.getByTestId("run-preview");
  await expect(preview).toContainText("2 clusters in 2 stages");
  await expect(preview.locator('[data-preview-stage="canary"]')).toBeVisible();
  await expect(preview.locator(`[data-preview-item="${CANARY.namespace}/${CANARY.name}"]`)).toBeVisible();
  await expect(preview.locator(`[data-preview-item="${SECOND.namespace}/${SECOND.name}"]`)).toBeVisible();
  await expect(preview.locator('[data-preview-stage="production"]')).toContainText("Needs approval");
  await expect(page.getByTestId("preview-expected-end")).not.toBeEmpty();
  await expectNoSeriousA11yViolations(page, "the new update run with its preview");
  await screenshot(page, testInfo, "update-run-new-preview-1440");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, testInfo, "update-run-new-preview-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await page.setViewportSize(PHONE);
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBe(
    0,
  );
  await screenshot(page, testInfo, "update-run-new-preview-390");
  await page.setViewportSize({ width: 1440, height: 900 });

  // Changing the form makes the preview stale: Start waits for a new one.
  await page.getByLabel("Run name").fill(`${RUN_NAME}!`);
  await expect(page.getByRole("button", { name: "Start run" })).toBeDisabled();
  await page.getByLabel("Run name").fill(RUN_NAME);
  await expect(page.getByRole("button", { name: "Start run" })).toBeEnabled();
  await page.getByRole("button", { name: "Start run" }).click();
  await expect(page).toHaveURL(/\/update-runs\/[0-9a-f-]{36}$/);
  const runId = page.url().split("/").pop()!;

  // Stage one acts, its gate passes, and the run waits for the approval of stage two.
  await expect(page.getByRole("heading", { level: 1 })).toContainText(RUN_NAME);
  await expect(page.getByTestId("run-state")).toHaveText("Waiting for approval", { timeout: 90_000 });
  await expect(page.locator('[data-stage="canary"]')).toHaveAttribute("data-state", "Succeeded");
  await expect(page.locator('[data-stage="production"]').getByTestId("stage-waits")).toHaveText(
    "Waiting for approval before it starts.",
  );
  await expect(page.getByRole("button", { name: "Resume" })).toBeDisabled();
  await screenshot(page, testInfo, "update-run-waiting-1440");

  await page.getByRole("button", { name: "Approve" }).click();
  const approve = page.getByRole("dialog", { name: "Approve the stage production?" });
  await expect(approve).toContainText("The approval is recorded in the audit log under your name.");
  await expectNoSeriousA11yViolations(page, "the approval dialog", approve);
  await approve.getByRole("button", { name: "Approve stage" }).click();
  await expect(approve).toBeHidden();

  // Watched to its end: every stage and cluster done, nothing left to do.
  await expect(page.getByTestId("run-state")).toHaveText("Succeeded", { timeout: 90_000 });
  await expect(page.locator('[data-stage="production"]')).toHaveAttribute("data-state", "Succeeded");
  await expect(page.locator('[data-stage="production"]')).toContainText("Approved");
  await expect(page.getByRole("button", { name: "Cancel run" })).toBeDisabled();
  await expectNoSeriousA11yViolations(page, "a finished update run");
  await screenshot(page, testInfo, "update-run-succeeded-1440");
  await page.setViewportSize(PHONE);
  await screenshot(page, testInfo, "update-run-succeeded-390");
  await page.setViewportSize({ width: 1440, height: 900 });

  // In the history: the runs list, and the run's events in the audit log.
  await page.getByRole("link", { name: "Update runs", exact: true }).first().click();
  const row = page.locator(`[data-run-id="${runId}"]`);
  await expect(row).toHaveAttribute("data-state", "Succeeded");
  await expect(row).toContainText("2 clusters");
  await page.emulateMedia({ colorScheme: "dark" });
  await screenshot(page, testInfo, "update-runs-list-dark");
  await page.emulateMedia({ colorScheme: "light" });
  await row.getByRole("link", { name: RUN_NAME }).click();
  await page.getByRole("link", { name: "The run's events in the audit log" }).click();
  await expect(page).toHaveURL(new RegExp(`/audit\\?updateRun=${runId}$`));
  await expect(page.getByTestId("update-run-filter")).toHaveText(runId);
  const events = page.locator("tbody");
  await expect(events.getByText("Update run started").first()).toBeVisible();
  await expect(events.getByText("Update run stage approved").first()).toBeVisible();
  await expect(events.getByText("Update run ended").first()).toBeVisible();
  // …and its changes to each cluster, in the same history.
  await expect(events.getByText(CANARY.name).first()).toBeVisible();
  await expect(events.getByText(SECOND.name).first()).toBeVisible();
  await screenshot(page, testInfo, "update-run-audit");
});
