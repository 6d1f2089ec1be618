"use client";

// The shoot as YAML, as the API answers it, with a button that copies it.
import { Check, Copy } from "lucide-react";
import { useMemo, useState } from "react";
import { stringify } from "yaml";
import { Button } from "@/components/ui/button";
import { Dialog } from "@/components/ui/dialog";
import type { Shoot } from "@/lib/ui/api-types";

export function ShootYamlDialog({ shoot, open, onClose }: { shoot: Shoot; open: boolean; onClose: () => void }) {
  const text = useMemo(() => (open ? stringify(shoot, { lineWidth: 0 }) : ""), [open, shoot]);
  const [copied, setCopied] = useState<"yes" | "failed" | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied("yes");
    } catch {
      setCopied("failed");
    }
  };
  const close = () => {
    setCopied(null);
    onClose();
  };
  return (
    <Dialog
      open={open}
      onClose={close}
      wide
      title={`${shoot.metadata.name} as YAML`}
      description={`The Shoot (core.gardener.cloud/v1beta1) in namespace ${shoot.metadata.namespace}, as Almanac has it.`}
      footer={
        <>
          <span role="status" aria-live="polite" className="mr-auto self-center text-sm text-slate-600">
            {copied === "yes"
              ? "Copied to the clipboard."
              : copied === "failed"
                ? "Copying was not allowed; select the text instead."
                : ""}
          </span>
          <Button variant="primary" onClick={() => void copy()}>
            {copied === "yes" ? <Check aria-hidden className="size-4" /> : <Copy aria-hidden className="size-4" />}
            Copy YAML
          </Button>
          <Button onClick={close}>Close</Button>
        </>
      }
    >
      <pre
        tabIndex={0}
        aria-label={`YAML of ${shoot.metadata.name}`}
        data-testid="shoot-yaml"
        className="overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs leading-relaxed text-slate-800 ring-1 ring-slate-200 focus-visible:outline-2 focus-visible:outline-accent-600"
      >
        {text}
      </pre>
    </Dialog>
  );
}
