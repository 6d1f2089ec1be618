"use client";

// Removing something, confirmed: the dialog names what goes and what follows, Cancel is where focus
// starts, and the server's refusal shows inside. One dialog for every "Delete this …?" (freezes,
// accounts), so they read and behave alike.
import { useMutation } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Button } from "./button";
import { Dialog } from "./dialog";
import { FormAlert } from "./form-field";
import { formProblems } from "@/lib/ui/access";

export function ConfirmRemovalDialog<T>({
  item,
  onClose,
  title,
  confirmLabel,
  pendingLabel,
  remove,
  onRemoved,
  children,
}: {
  /** What to remove; the dialog is open while there is one. */
  item: T | undefined;
  onClose: () => void;
  title: string;
  /** The button's words ("Delete freeze"), and while it works ("Deleting…"). */
  confirmLabel: string;
  pendingLabel: string;
  remove: (item: T) => Promise<unknown>;
  /** After the server removed it (e.g. refresh the lists that showed it); the dialog closes. */
  onRemoved?: () => void;
  /** What goes, and what follows. */
  children: (item: T) => ReactNode;
}) {
  const mutation = useMutation({
    mutationFn: remove,
    onSuccess: () => {
      onRemoved?.();
      close();
    },
  });
  const close = () => {
    mutation.reset();
    onClose();
  };
  return (
    <Dialog
      open={item !== undefined}
      onClose={close}
      title={title}
      footer={
        <>
          <Button onClick={close} data-autofocus>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={mutation.isPending}
            onClick={() => item !== undefined && mutation.mutate(item)}
          >
            {mutation.isPending ? pendingLabel : confirmLabel}
          </Button>
        </>
      }
    >
      {item !== undefined && (
        <div className="space-y-3 text-sm text-slate-700">
          {children(item)}
          <FormAlert message={formProblems(mutation.error).message} />
        </div>
      )}
    </Dialog>
  );
}
