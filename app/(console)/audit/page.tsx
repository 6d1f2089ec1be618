import type { Metadata } from "next";
import { Suspense } from "react";
import { AuditLog } from "@/components/audit/audit-log";
import { LoadingBlock } from "@/components/ui/states";

export const metadata: Metadata = { title: "Audit log" };

// The filters live in the URL query (useSearchParams), which needs a Suspense boundary.
export default function AuditPage() {
  return (
    <Suspense fallback={<LoadingBlock label="Loading the audit log" lines={8} />}>
      <AuditLog />
    </Suspense>
  );
}
