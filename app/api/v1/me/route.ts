import { db } from "@/lib/db/client.ts";
import { whoAmI as whoAmIOp } from "@/lib/api/operations/access.ts";
import { json, route } from "@/lib/http/route.ts";
import { whoAmI } from "@/lib/server/who-am-i.ts";

export const GET = route(whoAmIOp, async ({ principal }) => json(await whoAmI(db(), principal)));
