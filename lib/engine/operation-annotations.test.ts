// The tasks annotation, task by task. The cases are those of Gardener's
// pkg/controllerutils/miscellaneous_test.go (#AddTasks, #RemoveTasks, #HasTask).
import { describe, expect, it } from "vitest";
import {
  addTasks,
  ANNOTATION_TASKS,
  hasTask,
  parseBool,
  pendingOperations,
  removeTasks,
  TASK_DEPLOY_INFRASTRUCTURE,
} from "./operation-annotations.ts";

const INFRA = TASK_DEPLOY_INFRASTRUCTURE;
const tasksOf = (annotations: Record<string, string>) => annotations[ANNOTATION_TASKS]?.split(",");

describe("addTasks (Gardener: pkg/controllerutils/miscellaneous.go, AddTasks)", () => {
  it.each<[string, Record<string, string>, string[], string[] | undefined]>([
    ["task to absent annotation", {}, [INFRA], [INFRA]],
    ["task to empty list", { foo: "bar" }, [INFRA], [INFRA]],
    ["no task to empty list", {}, [], undefined],
    ["no task to empty list (other annotations)", { foo: "bar" }, [], undefined],
    ["task to empty list twice", {}, [INFRA, INFRA], [INFRA]],
    ["tasks to filled list", { [ANNOTATION_TASKS]: INFRA }, ["some-task"], [INFRA, "some-task"]],
    ["tasks already in list", { [ANNOTATION_TASKS]: INFRA }, ["some-task", INFRA], [INFRA, "some-task"]],
  ])("miscellaneous_test.go: %s", (_, annotations, tasks, expected) => {
    addTasks(annotations, ...tasks);
    expect(tasksOf(annotations)).toEqual(expected);
  });
});

describe("removeTasks (Gardener: pkg/controllerutils/miscellaneous.go, RemoveTasks)", () => {
  it.each<[string, Record<string, string>, string[], string[] | undefined]>([
    ["task from absent annotation", {}, [INFRA], undefined],
    ["task from empty list", { foo: "bar" }, [INFRA], undefined],
    ["no task from empty list", {}, [], undefined],
    ["no task from empty list (other annotations)", { foo: "bar" }, [], undefined],
    ["task from empty list twice", {}, [INFRA, INFRA], undefined],
    ["non-existing tasks from filled list", { [ANNOTATION_TASKS]: INFRA }, ["foo"], [INFRA]],
    ["existing task from filled list", { [ANNOTATION_TASKS]: `${INFRA},foo` }, [INFRA], ["foo"]],
    ["all existing tasks from filled list", { [ANNOTATION_TASKS]: `${INFRA},foo` }, ["foo", INFRA], undefined],
    ["all occurances of a task", { [ANNOTATION_TASKS]: `${INFRA},${INFRA}` }, [INFRA], undefined],
  ])("miscellaneous_test.go: %s", (_, annotations, tasks, expected) => {
    removeTasks(annotations, ...tasks);
    expect(tasksOf(annotations)).toEqual(expected);
    // An emptied list removes the annotation, and other annotations stay.
    if (expected === undefined) expect(annotations).not.toHaveProperty(ANNOTATION_TASKS);
  });

  it("keeps the other annotations", () => {
    const annotations = { foo: "bar", [ANNOTATION_TASKS]: INFRA };
    removeTasks(annotations, INFRA);
    expect(annotations).toEqual({ foo: "bar" });
  });
});

describe("hasTask (Gardener: pkg/controllerutils/miscellaneous.go, HasTask)", () => {
  it.each<[string, Record<string, string>, string, boolean]>([
    ["absent task annotation", {}, INFRA, false],
    ["empty task list", { [ANNOTATION_TASKS]: "" }, INFRA, false],
    ["task not in list", { [ANNOTATION_TASKS]: "some-task,dummyTask" }, INFRA, false],
    ["task in list", { [ANNOTATION_TASKS]: `some-task,${INFRA}` }, "some-task", true],
  ])("miscellaneous_test.go: %s", (_, annotations, task, expected) => {
    expect(hasTask(annotations, task)).toBe(expected);
  });
});

describe("pendingOperations (what maintain would overwrite)", () => {
  it.each<[string, Record<string, string> | undefined, string[]]>([
    ["no annotations", undefined, []],
    ["no operation", { foo: "bar" }, []],
    ["maintain alone", { "gardener.cloud/operation": "maintain" }, []],
    ["reconcile or retry, which act at once or not at all", { "gardener.cloud/operation": "reconcile;retry" }, []],
    ["a rotation Gardener keeps until done", { "gardener.cloud/operation": "rotate-ca-start" }, ["rotate-ca-start"]],
    [
      "several, separated by ';'",
      { "gardener.cloud/operation": "rotate-observability-credentials;rollout-workers=pool-a" },
      ["rotate-observability-credentials", "rollout-workers=pool-a"],
    ],
    ["force-in-place-update", { "gardener.cloud/operation": "force-in-place-update" }, ["force-in-place-update"]],
  ])("%s", (_, annotations, expected) => {
    expect(pendingOperations(annotations)).toEqual(expected);
  });
});

describe("parseBool (Go's strconv.ParseBool, true only)", () => {
  it.each(["1", "t", "T", "TRUE", "true", "True"])("%s is true", (value) => expect(parseBool(value)).toBe(true));
  it.each(["", "yes", "tRUE", "0", "false", " true", undefined])("%s is not", (value) =>
    expect(parseBool(value)).toBe(false),
  );
});
