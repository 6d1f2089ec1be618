import { db } from "@/lib/db/client.ts";
import { json, route } from "@/lib/http/route.ts";
import { whoAmI } from "@/lib/server/who-am-i.ts";

export const GET = route({ need: "signed-in" }, async ({ principal }) => json(await whoAmI(db(), principal)));
