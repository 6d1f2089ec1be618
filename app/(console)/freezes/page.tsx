import type { Metadata } from "next";
import { FreezesPage } from "@/components/freezes/freezes-page";

export const metadata: Metadata = { title: "Freezes" };

export default function Freezes() {
  return <FreezesPage />;
}
