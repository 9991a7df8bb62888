/**
 * The HTTP ceiling of this machine for `pnpm bench:http`: node:http alone, in as many cluster
 * workers as the server runs, answering every request with the same bytes (a body and content
 * type given by the benchmark). No framework, no database, no routing: what any Node server on
 * these cores can at most answer, against which the app's endpoints and pgbench are set.
 *
 * node scripts/http-ceiling.mjs <port> <workers> <content type> <body file>
 */
import cluster from "node:cluster";
import { readFileSync } from "node:fs";
import http from "node:http";

const [port, workers, contentType, bodyFile] = process.argv.slice(2);
if (cluster.isPrimary) {
  for (let i = 0; i < Number(workers); i++) cluster.fork();
  let listening = 0;
  cluster.on("listening", () => {
    if (++listening === Number(workers)) process.stdout.write("listening\n");
  });
} else {
  const body = readFileSync(bodyFile);
  const headers = { "content-type": contentType, "content-length": body.length };
  http.createServer((_req, res) => res.writeHead(200, headers).end(body)).listen(Number(port), "127.0.0.1");
}
