import { redirect } from "next/navigation";

// The fleet is where operators start.
export default function StartPage() {
  redirect("/shoots");
}
