/**
 * The chat fan-out baseline (bench/chat-fanout.ts), in its own process like ours: a bare
 * node:http + `ws` server with no auth and no database. Sockets subscribe to rooms; a `send`
 * frame broadcasts the same JSON event ours sends to the room and answers `sent`; typing and
 * reaction frames are relayed to the room.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import { type WebSocket, WebSocketServer } from 'ws';

const rooms = new Map<string, Set<WebSocket>>();
const server = http.createServer((_req, res) => res.writeHead(404).end());
const wss = new WebSocketServer({ server, path: '/api/realtime' });
wss.on('connection', (ws) => {
  ws.send(JSON.stringify({ type: 'ready', userId: 'x' }));
  ws.on('message', (raw) => {
    const msg = JSON.parse(raw.toString()) as { type: string; room: string; body?: string; ref?: string };
    if (msg.type === 'send') {
      const message = {
        id: randomUUID(),
        mixerId: msg.room.slice('mixer:'.length),
        kind: 'member',
        body: msg.body,
        createdAt: new Date().toISOString(),
        sender: { id: 'x', firstName: 'X', avatarUrl: null },
      };
      const payload = JSON.stringify({ type: 'mixer.message', message });
      for (const peer of rooms.get(msg.room) ?? []) if (peer.readyState === peer.OPEN) peer.send(payload);
      ws.send(JSON.stringify({ type: 'sent', ref: msg.ref, message }));
      return;
    }
    // Typing (bench/chat-live-room.ts): relayed to the room's other sockets, like ours.
    if (msg.type === 'typing') {
      const payload = JSON.stringify({ type: 'typing', room: msg.room, userId: 'x', typing: (msg as { typing?: boolean }).typing });
      for (const peer of rooms.get(msg.room) ?? []) if (peer !== ws && peer.readyState === peer.OPEN) peer.send(payload);
      return;
    }
    // A reaction (bench/chat-live-room.ts): relayed to the whole room, like ours.
    if (msg.type === 'reaction') {
      const payload = JSON.stringify({ type: 'mixer.reaction', mixerId: msg.room.slice('mixer:'.length), messageId: msg.body, emoji: '❤️' });
      for (const peer of rooms.get(msg.room) ?? []) if (peer.readyState === peer.OPEN) peer.send(payload);
      return;
    }
    if (msg.type !== 'subscribe') return;
    let set = rooms.get(msg.room);
    if (!set) {
      set = new Set();
      rooms.set(msg.room, set);
    }
    set.add(ws);
    ws.on('close', () => set.delete(ws));
    ws.send(JSON.stringify({ type: 'subscribed', room: msg.room }));
  });
});
server.listen(Number(process.env.PORT), '127.0.0.1', () => console.log('bare ready'));
