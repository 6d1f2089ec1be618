// An answer to be saved as a file: its media type and a Content-Disposition naming the file.
// Names are made by Almanac from DNS labels, digits and dashes, so they need no escaping; anything
// else is replaced, to be sure.
import { logger } from "../observability/logger.ts";

export function download(
  body: string | ReadableStream<Uint8Array>,
  { filename, contentType }: { filename: string; contentType: string },
): Response {
  const safe = filename.replace(/[^\w.-]/g, "_");
  return new Response(body, {
    headers: {
      "content-type": contentType,
      "content-disposition": `attachment; filename="${safe}"`,
      "cache-control": "no-store",
      "x-content-type-options": "nosniff",
    },
  });
}

/**
 * A body written piece by piece as `pieces` yields them, each read only when the client has taken
 * the one before (so a large export neither waits for its end nor sits in memory). The first piece
 * should be read before the response is made, so that errors in the request still answer as
 * problems; an error later cuts the download short, and the server log has it.
 */
export function textStream(pieces: AsyncIterator<string>, label: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await pieces.next();
          if (next.done) controller.close();
          else controller.enqueue(encoder.encode(next.value));
        } catch (error) {
          logger().error(`${label}: the answer failed while streaming: ${(error as Error).message}`);
          controller.error(error);
        }
      },
      async cancel() {
        await pieces.return?.();
      },
    },
    { highWaterMark: 2 },
  );
}
