// The page's one connection to the server: the seat protocol over a WebSocket (docs/protocol.md,
// docs/web.md). One text message is one request; each reply carries the request's "id", so a
// request's promise is settled by its own reply even when replies of other requests interleave.

const TOKEN_KEY = "copsolver.session";

/** A reply of type "error", thrown by Connection.request so callers can show it. */
export class ProtocolError extends Error {
  constructor(reply) {
    super(reply.message || reply.error || "error");
    this.kind = reply.error || "error";
    this.reply = reply;
  }
}

/** The connection was lost before the request's last reply came. */
export class ClosedError extends Error {}

export class Connection {
  /**
   * @param {object} handlers  onSession(reply) after each (re)connect, onClose(retrying) when the
   *   socket drops, onUnsolicited(reply) for a reply no request waits for.
   */
  constructor(handlers) {
    this.handlers = handlers;
    this.socket = null;
    this.nextId = 1;
    this.pending = new Map();
    this.retries = 0;
  }

  /** The session token kept across reloads of this tab (sessionStorage: one per tab). */
  get token() {
    return sessionStorage.getItem(TOKEN_KEY);
  }

  /** Open the socket, resuming this tab's session when it has a token. */
  connect() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const token = this.token;
    const query = token ? `?session=${encodeURIComponent(token)}` : "";
    const socket = new WebSocket(`${scheme}//${location.host}/ws${query}`);
    this.socket = socket;
    socket.addEventListener("message", (event) => this.receive(event.data));
    socket.addEventListener("close", () => {
      if (this.socket !== socket) return;
      this.socket = null;
      this.failPending();
      // try again, slower each time: the server may be restarting, or the tab was asleep
      this.retries += 1;
      const retry = this.retries <= 8;
      this.handlers.onClose(retry);
      if (retry) setTimeout(() => this.connect(), Math.min(500 * this.retries, 4000));
    });
  }

  get open() {
    return this.socket !== null && this.socket.readyState === WebSocket.OPEN;
  }

  receive(text) {
    let reply;
    try {
      reply = JSON.parse(text);
    } catch {
      return; // the server sends only JSON; anything else is not ours to read
    }
    if (reply.type === "session") {
      this.retries = 0;
      sessionStorage.setItem(TOKEN_KEY, reply.session);
      this.handlers.onSession(reply);
      return;
    }
    const waiting = reply.id === undefined ? undefined : this.pending.get(reply.id);
    if (waiting === undefined) {
      this.handlers.onUnsolicited(reply);
      return;
    }
    if (reply.type === "error") {
      this.pending.delete(reply.id);
      waiting.reject(new ProtocolError(reply));
    } else if (waiting.last(reply)) {
      this.pending.delete(reply.id);
      waiting.resolve(reply);
    } else {
      waiting.step(reply);
    }
  }

  failPending() {
    for (const waiting of this.pending.values()) waiting.reject(new ClosedError("connection lost"));
    this.pending.clear();
  }

  /**
   * Send one request; resolve with its last reply (rejects with ProtocolError on an error reply).
   * `step` sees each earlier reply (advance's "applied" replies); `last` says which reply ends it.
   */
  request(message, { step = () => {}, last = () => true } = {}) {
    if (!this.open) return Promise.reject(new ClosedError("not connected"));
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, step, last });
      this.socket.send(JSON.stringify({ ...message, id }));
    });
  }
}
