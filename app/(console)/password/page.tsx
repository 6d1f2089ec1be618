import type { Metadata } from "next";
import { ChangePasswordPage } from "@/components/account/change-password-page";

export const metadata: Metadata = { title: "Your password" };

export default function Password() {
  return <ChangePasswordPage />;
}
