import type { Server } from 'node:http';
import type { Socket } from 'node:net';

/** What Node's own handler answers for a request it could not parse, by the parser's error code. */
const STATUS_LINES: Readonly<Record<string, string>> = {
  HPE_HEADER_OVERFLOW: '431 Request Header Fields Too Large',
  HPE_CHUNK_EXTENSIONS_OVERFLOW: '413 Content Too Large',
  ERR_HTTP_REQUEST_TIMEOUT: '408 Request Timeout',
};

/**
 * Answers a request Node's HTTP parser refuses (a request line or headers over the size limit, a malformed
 * head) with the status Node would send, then closes the connection *lingering*: it sends its FIN and reads
 * and discards what the client is still sending, for up to `lingerMs`, before letting go.
 *
 * Node's default handler writes the answer and destroys the socket at once. With request bytes still
 * unread, the kernel then resets the connection, and a client that has not read the answer yet loses it:
 * curl reports "connection reset" after the 431, and Node 24's http client reports only ECONNRESET.
 */
export function answerClientErrors(server: Server, lingerMs = 2_000): Server {
  // Connections with an answer under way: a keep-alive connection between answers may be told, one in the
  // middle of an answer may not (its bytes would mix with the answer's).
  const answering = new WeakSet<object>();
  server.on('request', (request, response) => {
    const socket = request.socket;
    answering.add(socket);
    const done = () => answering.delete(socket);
    response.once('finish', done);
    response.once('close', done);
  });
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // Nothing can be said on a connection that is gone, or in the middle of an answer already begun.
    if (!socket.writable || answering.has(socket) || error.code === 'ECONNRESET') {
      socket.destroy();
      return;
    }
    // The parser is done with this connection: what still arrives is read and dropped, not parsed again.
    socket.removeAllListeners('data');
    socket.removeAllListeners('end');
    socket.on('data', () => {});
    socket.on('end', () => socket.destroy());
    socket.on('error', () => socket.destroy());
    const timer = setTimeout(() => socket.destroy(), lingerMs);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    socket.setTimeout(0);
    socket.resume();
    const status = STATUS_LINES[error.code ?? ''] ?? '400 Bad Request';
    socket.end(`HTTP/1.1 ${status}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
  return server;
}
