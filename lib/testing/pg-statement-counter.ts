import net from 'node:net';

// A TCP proxy in front of PostgreSQL that records the SQL of every statement a client sends — simple Query
// ('Q') and extended-protocol Parse ('P') messages — and forwards every byte unchanged both ways. A process
// (the CLI, a worker) pointed at it through DATABASE_URL is measured as it runs, with its real driver and
// its real queries: what a test asserts is what PostgreSQL was asked.

export interface StatementCounter {
  /** A DATABASE_URL that reaches the same database through the proxy. */
  url: string;
  /** Every statement's SQL text, in the order the clients sent them. */
  statements: string[];
  close(): Promise<void>;
}

export async function startStatementCounter(databaseUrl: string): Promise<StatementCounter> {
  const target = new URL(databaseUrl);
  const statements: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let buf = Buffer.alloc(0);
    let started = false; // the startup message (and an SSL request) carry no type byte
    client.on('data', (chunk: Buffer) => {
      upstream.write(chunk);
      buf = Buffer.concat([buf, chunk]);
      for (;;) {
        if (!started) {
          if (buf.length < 8) return;
          const len = buf.readInt32BE(0);
          if (buf.length < len) return;
          const code = buf.readInt32BE(4);
          buf = buf.subarray(len);
          if (code !== 80877103) started = true; // 80877103: SSLRequest, followed by the startup message
          continue;
        }
        if (buf.length < 5) return;
        const len = buf.readInt32BE(1);
        if (buf.length < 1 + len) return;
        const type = String.fromCharCode(buf[0]);
        const body = buf.subarray(5, 1 + len);
        if (type === 'Q') statements.push(body.toString('utf8', 0, body.indexOf(0)));
        if (type === 'P') {
          const nameEnd = body.indexOf(0); // Parse: statement name, then the query text, both NUL-terminated
          statements.push(body.toString('utf8', nameEnd + 1, body.indexOf(0, nameEnd + 1)));
        }
        buf = buf.subarray(1 + len);
      }
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(port);
  return {
    url: url.toString(),
    statements,
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
