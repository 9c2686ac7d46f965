// The live connection of a page: a WebSocket to the server that says hello first, answers
// the server's pings, and opens again after a drop (backing off up to 10 s); the first
// message after each (re)connection is the state as it is then, so nothing is missed.
// The server side is boardlab/web/live.py (pump).
//
//   const live = connectLive("/api/quests/ID/live", {
//     hello: () => ({type: "hello", key}),      // sent on every open
//     onMessage: (message) => ...,               // every message but ping/pong
//     onState: (state) => ...,                   // "open", "closed" (reconnecting), "refused"
//   });
//   live.send({type: "hello", ...});             // when open; dropped otherwise
//   live.close();
//
// A close with code 4403 (not allowed) or 4404 (no such match or quest) is final: the
// server will refuse again, so the helper does not reconnect.

export function connectLive(path, { hello, onMessage, onState } = {}) {
  let socket = null;
  let retry = 500;
  let stopped = false;

  function open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    const current = new WebSocket(`${scheme}//${location.host}${path}`);
    socket = current;
    current.addEventListener("open", () => {
      retry = 500;
      if (hello) current.send(JSON.stringify(hello()));
      if (onState) onState("open");
    });
    current.addEventListener("message", (event) => {
      let message = null;
      try {
        message = JSON.parse(event.data);
      } catch (_) {
        return;
      }
      if (message.type === "ping") current.send(JSON.stringify({ type: "pong" }));
      else if (message.type !== "pong" && onMessage) onMessage(message);
    });
    current.addEventListener("close", (event) => {
      if (socket !== current || stopped) return;
      if (event.code === 4403 || event.code === 4404) {
        if (onState) onState("refused");
        return;
      }
      if (onState) onState("closed");
      setTimeout(() => { if (!stopped) open(); }, retry);
      retry = Math.min(retry * 2, 10000);
    });
  }

  open();
  return {
    send(message) {
      if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
    },
    close() {
      stopped = true;
      if (socket) socket.close();
    },
  };
}
