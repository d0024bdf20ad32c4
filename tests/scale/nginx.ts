import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs/promises";
import net from "node:net";
import path from "node:path";
import { PROJECT_DIR } from "../../server/src/paths.ts";

/** The README's nginx example, as an operator puts it in /etc/nginx/conf.d/. */
export const NGINX_EXAMPLE = path.join(PROJECT_DIR, "deploy/nginx-reverie.conf");

export interface LogEntry {
  method: string;
  path: string;
  status: number;
  /** `$upstream_addr`: the instance that answered, or several ("a, b") when nginx tried the next one */
  upstream: string;
}

export interface Nginx {
  url: string;
  /** the master process (its worker is its child) */
  pid: number;
  /** Each request answered so far, in the order they ended, with the instance(s) (host:port) nginx sent it to. */
  log(): Promise<LogEntry[]>;
  stop(): Promise<void>;
}

/**
 * nginx (Debian's package) serving the README's example file unchanged but for the ports and the log's path, inside a
 * main configuration of its own (the one /etc/nginx/nginx.conf would be).
 */
export async function startNginx(dir: string, port: number, instancePorts: [number, number]): Promise<Nginx> {
  const log = path.join(dir, "access.log");
  const example = (await fs.readFile(NGINX_EXAMPLE, "utf8"))
    .replace("127.0.0.1:8101", `127.0.0.1:${instancePorts[0]}`)
    .replace("127.0.0.1:8102", `127.0.0.1:${instancePorts[1]}`)
    .replace("listen 8080;", `listen 127.0.0.1:${port};`)
    .replace("/var/log/nginx/reverie.access.log", log);
  await fs.mkdir(dir, { recursive: true });
  await fs.writeFile(path.join(dir, "reverie.conf"), example);
  await fs.writeFile(
    path.join(dir, "nginx.conf"),
    [
      "worker_processes 1;",
      `pid ${path.join(dir, "nginx.pid")};`,
      `error_log ${path.join(dir, "error.log")} warn;`,
      "events { worker_connections 1024; }",
      "http {",
      `  client_body_temp_path ${dir}/body; proxy_temp_path ${dir}/proxy;`,
      `  fastcgi_temp_path ${dir}/fastcgi; uwsgi_temp_path ${dir}/uwsgi; scgi_temp_path ${dir}/scgi;`,
      `  include ${path.join(dir, "reverie.conf")};`,
      "}",
      "",
    ].join("\n"),
  );
  const child: ChildProcess = spawn("nginx", ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "ignore", "pipe"] });
  let err = "";
  child.stderr!.on("data", (d) => (err += d));
  const exited = new Promise<void>((resolve) => child.once("close", () => resolve()));
  child.once("error", (e) => (err += e.message));
  const url = `http://127.0.0.1:${port}`;
  // nginx is up once its port accepts a connection. Not an HTTP request: every path is proxied, and one sent before the
  // instances listen marks both down (max_fails) — the 502s "no live upstreams" a run once saw on its first requests
  for (let tries = 0; ; tries++) {
    try {
      await connects(port);
      break;
    } catch {
      if (tries > 50 || child.exitCode !== null) throw new Error(`nginx did not start (install Debian's nginx: apt-get install -y nginx): ${err}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    pid: child.pid!,
    async log() {
      const lines = (await fs.readFile(log, "utf8").catch(() => "")).trim().split("\n").filter(Boolean);
      return lines.map((l) => {
        // the example's log_format: $remote_addr [$time_local] "$request" $status $body_bytes_sent $request_time $upstream_addr $request_id
        const m = /"(\S+) (\S+)[^"]*" (\d+) \d+ \S+ (.*) \S+$/.exec(l);
        if (!m) throw new Error(`unexpected access log line: ${l}`);
        return { method: m[1]!, path: m[2]!, status: Number(m[3]), upstream: m[4]! };
      });
    },
    async stop() {
      child.kill("SIGQUIT");
      await exited;
    },
  };
}

function connects(port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.end();
      resolve();
    });
    socket.once("error", reject);
  });
}
