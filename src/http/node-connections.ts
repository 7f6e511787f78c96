import type { IncomingMessage, Server, ServerResponse } from "node:http";
import type { Socket } from "node:net";
import type { Duplex } from "node:stream";

// What the node:http adapter keeps about its connections: the requests each one has received and not yet
// answered, so that a refusal of what follows them waits for their answers (RFC 9112 section 9.3.2: answers
// to pipelined requests go out in the order the requests came), and the answers in flight at shutdown.

/** What `close` reports: requests received whose answer the shutdown grace cut off. */
export interface CloseReport {
  readonly cutOff: number;
}

export class Connections {
  /** Answers not yet sent, of requests received whole or not. */
  private readonly inFlight = new Set<ServerResponse>();
  /** By connection, its requests whose answer is not sent yet. */
  private readonly unanswered = new WeakMap<Duplex, Set<IncomingMessage>>();
  /** By connection, the refusal waiting for the answers to the requests before it. */
  private readonly refusals = new WeakMap<Duplex, () => void>();
  /** Connections already refused, whose later read errors are the same one. */
  private readonly refused = new WeakSet<Duplex>();
  /** Every open connection, and by connection the bytes read by the end of its last answer. */
  private readonly open = new Map<Socket, number>();
  private shutdown?: Promise<CloseReport>;

  constructor(private readonly server: Server) {
    server.on("connection", (socket: Socket) => {
      this.open.set(socket, 0);
      socket.once("close", () => this.open.delete(socket));
    });
    // Node's own (which its `close` calls) destroys idle connections: a request already on its way to one meets a
    // reset. This one closes them in stages.
    server.closeIdleConnections = () => {
      for (const socket of this.open.keys()) this.closeIfIdle(socket);
    };
  }

  /** False for a request on a connection the shutdown already closed for writing: nobody can be answered there. */
  answerable(req: IncomingMessage): boolean {
    if (!req.socket.writableEnded) return true;
    req.resume();
    return false;
  }

  /** True once the server is shutting down: every answer then closes its connection. */
  get closing(): boolean {
    return this.shutdown !== undefined;
  }

  /** A request arrived: it waits for its answer until the answer is sent or its connection is gone. */
  received(req: IncomingMessage, res: ServerResponse): void {
    const socket = req.socket;
    let mine = this.unanswered.get(socket);
    if (!mine) this.unanswered.set(socket, (mine = new Set()));
    mine.add(req);
    this.inFlight.add(res);
    let done = false;
    const settle = () => {
      if (done) return;
      done = true;
      this.inFlight.delete(res);
      mine.delete(req);
      if (this.open.has(socket)) this.open.set(socket, socket.bytesRead);
      const refusal = this.refusals.get(socket);
      if (refusal && !waiting(mine)) {
        this.refusals.delete(socket);
        refusal();
      }
      // An answer sent as the shutdown began may leave its connection idle: close it now.
      if (this.closing) this.server.closeIdleConnections();
    };
    // Node runs its own 'finish' listener first: the next pipelined answer is under way before this one.
    res.once("finish", settle);
    res.once("close", settle);
  }

  /**
   * A connection Node could no longer read: `refuse` answers it and closes it once every request received
   * whole before the unreadable one is answered. A connection is refused once (more bytes may fail again).
   */
  refuseAfterAnswers(socket: Duplex, refuse: () => void): void {
    if (this.refused.has(socket)) return;
    this.refused.add(socket);
    const mine = this.unanswered.get(socket);
    if (mine && waiting(mine)) this.refusals.set(socket, refuse);
    else refuse();
  }

  /**
   * Stops the server: no new connection, idle ones closed, every later answer with `Connection: close`;
   * requests in flight have `graceMs` to be answered, then their connections are cut and they are counted.
   */
  close(graceMs: number): Promise<CloseReport> {
    const server = this.server;
    this.shutdown ??= new Promise<CloseReport>((resolve) => {
      let cutOff = 0;
      const timer = setTimeout(() => {
        cutOff = this.inFlight.size;
        server.closeAllConnections();
      }, graceMs);
      timer.unref();
      server.close(() => {
        clearTimeout(timer);
        resolve({ cutOff });
      });
    });
    return this.shutdown;
  }

  /**
   * RFC 9112 section 9.6, a staged close of a connection with no request begun since its last answer: the
   * server stops writing, then reads until the client closes (a request already on its way meets the end of
   * the connection, not a reset); the grace ends what is left.
   */
  private closeIfIdle(socket: Socket): void {
    const mine = this.unanswered.get(socket);
    if ((mine === undefined || mine.size === 0) && socket.bytesRead === this.open.get(socket)) socket.end();
  }
}

/** A request received whole is waiting for its answer; one cut short by the refusal never gets one. */
function waiting(requests: Set<IncomingMessage>): boolean {
  for (const req of requests) if (req.complete) return true;
  return false;
}
