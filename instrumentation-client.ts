// Runs in the browser before the app's code (Next's client instrumentation). The pages' Content-
// Security-Policy has no 'unsafe-eval', and zod 4 probes `new Function("")` when it creates an
// object schema, to choose a compiled fast path: the probe's error is caught, but the browser still
// reports a CSP violation. Here zod builds its parsers without compiling (the browser parses little:
// the fleet's URL filters); on the server it keeps its fast path.
import { z } from "zod";

z.config({ jitless: true });
