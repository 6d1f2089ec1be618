// The end of a dialog's form: the server's message for the form as a whole (field problems show
// beside their fields; this says that some need another look, or that Almanac could not be
// reached), then Cancel and the submit button, which says when it is at work. One block, so every
// create form reports its problems alike.
import { Button } from "./button";
import { FormAlert } from "./form-field";
import { formProblems } from "@/lib/ui/access";

export function FormErrorBlock({
  error,
  pending,
  submitLabel,
  pendingLabel,
  onCancel,
}: {
  /** The mutation's error, if any. */
  error: unknown;
  pending: boolean;
  submitLabel: string;
  pendingLabel: string;
  onCancel: () => void;
}) {
  return (
    <>
      <FormAlert message={formProblems(error).message} />
      <div className="flex justify-end gap-2 border-t border-slate-200 pt-4">
        <Button onClick={onCancel}>Cancel</Button>
        <Button type="submit" variant="primary" disabled={pending}>
          {pending ? pendingLabel : submitLabel}
        </Button>
      </div>
    </>
  );
}
