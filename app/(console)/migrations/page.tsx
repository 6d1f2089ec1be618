import type { Metadata } from "next";
import { MigrationsPage } from "@/components/migrations/migrations-page";

export const metadata: Metadata = { title: "Migrations" };

export default function Migrations() {
  return <MigrationsPage />;
}
