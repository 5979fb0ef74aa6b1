// The part of node:http the mock providers use, declared here so that the build needs no
// @types/node (as js/ambient.d.ts does for the runtime entries). None of it appears in the
// public types (types.mts), so consumers need no Node types either.

declare module "node:http" {
  export interface IncomingMessage extends AsyncIterable<Uint8Array> {
    readonly method?: string;
    readonly url?: string;
    readonly headers: Record<string, string | string[] | undefined>;
    /** Names and values in turn, as received. */
    readonly rawHeaders: string[];
  }

  export interface Socket {
    setNoDelay(noDelay?: boolean): this;
  }

  export interface ServerResponse {
    readonly headersSent: boolean;
    readonly writableEnded: boolean;
    readonly destroyed: boolean;
    readonly socket: Socket | null;
    writeHead(status: number, headers?: Record<string, string>): this;
    flushHeaders(): void;
    write(chunk: string | Uint8Array, callback?: (error?: Error | null) => void): boolean;
    end(chunk?: string | Uint8Array): this;
    destroy(error?: Error): this;
    once(event: "close" | "drain", listener: () => void): this;
  }

  export interface AddressInfo {
    address: string;
    family: string;
    port: number;
  }

  export interface Server {
    listen(port: number, host: string, callback: () => void): this;
    address(): AddressInfo | string | null;
    close(callback?: (error?: Error) => void): this;
    closeAllConnections(): void;
    once(event: "error", listener: (error: Error) => void): this;
    off(event: "error", listener: (error: Error) => void): this;
  }

  export function createServer(listener: (request: IncomingMessage, response: ServerResponse) => void): Server;
}
