/**
 * Splits a text/event-stream into messages (the WHATWG rules: `field: value` lines, a blank line
 * ends a message, `:` starts a comment). EventSource cannot send the Authorization header, so the
 * stream is read with fetch.
 */
export function parseEventStream(onMessage: (message: { id?: string; event?: string; data: string }) => void): (chunk: string) => void {
  let buffer = '';
  let message: { id?: string; event?: string; data: string[] } = { data: [] };
  return (chunk) => {
    buffer += chunk;
    let newline: number;
    while ((newline = buffer.search(/\r\n|\r|\n/)) >= 0) {
      // A CR that ends the chunk may be the first half of a CRLF split across chunks: wait for the next.
      if (buffer[newline] === '\r' && newline === buffer.length - 1) break;
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + (buffer.startsWith('\r\n', newline) ? 2 : 1));
      if (line === '') {
        if (message.data.length > 0 || message.event) onMessage({ id: message.id, event: message.event, data: message.data.join('\n') });
        message = { data: [] };
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'id') message.id = value;
      else if (field === 'event') message.event = value;
      else if (field === 'data') message.data.push(value);
    }
  };
}
