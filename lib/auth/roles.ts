// Who may do what: the rules live in lib/api/roles.ts, the lowest layer that both the server's
// checks and the pages' (which say up front what a caller may do) can import.
export * from "../api/roles.ts";
