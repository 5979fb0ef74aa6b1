// Error answers in each provider's own body shape, headers and wording (provider-rules.md and
// the providers' public error reports). Where a provider's text for a status was not found in
// the wild, the text is ours and says so in the comment next to it.
import type { IdSource } from "./ids.mjs";
import type { JsonObject, Provider, Violation } from "./types.mjs";

export interface ErrorAnswer {
  status: number;
  body: JsonObject;
  headers: Record<string, string>;
  /** The provider's error type (Gemini: its status name), for the log. */
  type: string;
  message: string;
}

export interface ErrorOptions {
  message?: string | undefined;
  type?: string | undefined;
  /** OpenAI-style `code`, Mistral `code`. */
  code?: string | null | undefined;
  /** OpenAI-style `param`. */
  param?: string | null | undefined;
  retryAfter?: number | undefined;
  model?: string | undefined;
  /** Gemini `details`. */
  details?: JsonObject[] | undefined;
}

const GEMINI_STATUS: Record<number, string> = {
  400: "INVALID_ARGUMENT",
  401: "UNAUTHENTICATED",
  403: "PERMISSION_DENIED",
  404: "NOT_FOUND",
  405: "INVALID_ARGUMENT",
  409: "ABORTED",
  429: "RESOURCE_EXHAUSTED",
  499: "CANCELLED",
  500: "INTERNAL",
  501: "NOT_IMPLEMENTED",
  503: "UNAVAILABLE",
  504: "DEADLINE_EXCEEDED",
};

function anthropicError(status: number, o: ErrorOptions, ids: IdSource): ErrorAnswer {
  const [type, message] = ((): [string, string] => {
    switch (status) {
      case 400:
        return ["invalid_request_error", "Invalid request"];
      case 401:
        return ["authentication_error", "invalid x-api-key"];
      case 403:
        return ["permission_error", "Your API key does not have permission to use the specified resource."];
      case 404:
        return ["not_found_error", "Not Found"];
      case 405:
        return ["invalid_request_error", "Method Not Allowed"];
      case 413:
        return ["request_too_large", "Request exceeds the maximum allowed number of bytes."];
      case 429:
        return [
          "rate_limit_error",
          "This request would exceed the rate limit for your organization of 50 requests per minute. For details, refer to: https://docs.claude.com/en/api/rate-limits. You can see the response headers for current usage. Please try again later.",
        ];
      case 529:
        return ["overloaded_error", "Overloaded"];
      default:
        return ["api_error", "Internal server error"];
    }
  })();
  const requestId = ids.anthropicRequestId();
  const finalType = o.type ?? type;
  const finalMessage = o.message ?? message;
  const headers: Record<string, string> = { "request-id": requestId };
  if (status === 408 || status === 409 || status === 429 || status >= 500) headers["x-should-retry"] = "true";
  return {
    status,
    body: { type: "error", error: { type: finalType, message: finalMessage }, request_id: requestId },
    headers,
    type: finalType,
    message: finalMessage,
  };
}

function openaiError(status: number, o: ErrorOptions, ids: IdSource): ErrorAnswer {
  const model = o.model ?? "gpt-5.2";
  const [type, message, code] = ((): [string, string, string | null] => {
    switch (status) {
      case 400:
        return ["invalid_request_error", "Invalid request.", null];
      case 401:
        return [
          "invalid_request_error",
          "Incorrect API key provided. You can find your API key at https://platform.openai.com/account/api-keys.",
          "invalid_api_key",
        ];
      case 404:
        return ["invalid_request_error", "Invalid URL", null];
      case 405:
        return ["invalid_request_error", "Method Not Allowed", null];
      case 429:
        return [
          "requests",
          `Rate limit reached for ${model} in organization org-mock on requests per min (RPM): Limit 3, Used 3, Requested 1. Please try again in 20s. Visit https://platform.openai.com/account/rate-limits to learn more.`,
          "rate_limit_exceeded",
        ];
      case 503:
        return ["server_error", "The engine is currently overloaded, please try again later", null];
      default:
        return ["server_error", "The server had an error while processing your request. Sorry about that!", null];
    }
  })();
  const finalType = o.type ?? type;
  const finalMessage = o.message ?? message;
  return {
    status,
    body: {
      error: {
        message: finalMessage,
        type: finalType,
        param: o.param ?? null,
        code: o.code === undefined ? code : o.code,
      },
    },
    headers: { "x-request-id": `req_${ids.hex(32)}` },
    type: finalType,
    message: finalMessage,
  };
}

function geminiError(status: number, o: ErrorOptions): ErrorAnswer {
  const name = o.type ?? GEMINI_STATUS[status] ?? (status >= 500 ? "UNAVAILABLE" : "INVALID_ARGUMENT");
  const message =
    o.message ??
    ((): string => {
      switch (status) {
        case 401:
          return "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.";
        case 403:
          return "Method doesn't allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.";
        case 404:
          return "Requested entity was not found.";
        case 429:
          return "Resource has been exhausted (e.g. check quota).";
        case 500:
          return "An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting";
        case 503:
        case 529:
          return "The model is overloaded. Please try again later.";
        default:
          return "Request contains an invalid argument.";
      }
    })();
  const error: JsonObject = { code: status, message, status: name };
  if (o.details) error["details"] = o.details;
  return { status, body: { error }, headers: {}, type: name, message };
}

function mistralError(status: number, o: ErrorOptions, ids: IdSource): ErrorAnswer {
  // 401 and 404 come from Mistral's gateway, in other shapes than the API's own errors.
  if (status === 401) {
    const message = o.message ?? "Unauthorized";
    return { status, body: { message, request_id: ids.hex(32) }, headers: {}, type: "unauthorized", message };
  }
  if (status === 404) {
    const message = o.message ?? "Not Found";
    return { status, body: { detail: message }, headers: {}, type: "not_found", message };
  }
  const [type, message, code] = ((): [string, string, string | null] => {
    switch (status) {
      case 400:
        return ["invalid_request_error", "Invalid request", null];
      case 429:
        return ["rate_limited", "Rate limit exceeded", "1300"];
      // 5xx: Mistral's texts for these were not found; ours, in Mistral's shape.
      case 503:
      case 529:
        return ["service_unavailable", "Service unavailable", null];
      default:
        return ["internal_server_error", "Internal server error", null];
    }
  })();
  const finalType = o.type ?? type;
  const finalMessage = o.message ?? message;
  return {
    status,
    body: { object: "error", message: finalMessage, type: finalType, param: o.param ?? null, code: o.code === undefined ? code : o.code },
    headers: { "mistral-correlation-id": ids.uuid() },
    type: finalType,
    message: finalMessage,
  };
}

function kimiError(status: number, o: ErrorOptions): ErrorAnswer {
  const [type, message] = ((): [string, string] => {
    switch (status) {
      case 400:
        return ["invalid_request_error", "Invalid request"];
      case 401:
        return ["invalid_authentication_error", "Invalid Authentication"];
      case 404:
        return ["resource_not_found_error", "Not found"];
      case 429:
        return [
          "rate_limit_reached_error",
          "Your account org-mock<ak-mock> request reached organization max RPM: 3, please try again after 1 seconds",
        ];
      case 503:
      case 529:
        return ["engine_overloaded_error", "The engine is currently overloaded, please try again later"];
      // 500: Kimi's text was not found; ours.
      default:
        return ["server_error", "Internal server error"];
    }
  })();
  const finalType = o.type ?? type;
  const finalMessage = o.message ?? message;
  return { status, body: { error: { message: finalMessage, type: finalType } }, headers: {}, type: finalType, message: finalMessage };
}

function deepseekError(status: number, o: ErrorOptions): ErrorAnswer {
  // DeepSeek's documented error list (400 Invalid Format, 401 Authentication Fails, 429 Rate
  // Limit Reached, 500 Server Error, 503 Server Overloaded); the `type` of 429/5xx is ours.
  const [type, message] = ((): [string, string] => {
    switch (status) {
      case 400:
        return ["invalid_request_error", "Invalid Format"];
      case 401:
        return ["authentication_error", "Authentication Fails (auth header format should be Bearer sk-...)"];
      case 404:
        return ["invalid_request_error", "Not Found"];
      case 429:
        return ["rate_limit_error", "Rate Limit Reached"];
      case 503:
      case 529:
        return ["server_error", "Server Overloaded"];
      default:
        return ["server_error", "Server Error"];
    }
  })();
  const finalType = o.type ?? type;
  const finalMessage = o.message ?? message;
  return {
    status,
    body: { error: { message: finalMessage, type: finalType, param: o.param ?? null, code: o.code === undefined ? "invalid_request_error" : o.code } },
    headers: {},
    type: finalType,
    message: finalMessage,
  };
}

/** Bedrock's error type for an HTTP status (the ConverseError set of the AWS SDKs). */
const BEDROCK_TYPES: Record<number, string> = {
  400: "ValidationException",
  401: "UnrecognizedClientException",
  403: "AccessDeniedException",
  404: "ResourceNotFoundException",
  408: "ModelTimeoutException",
  424: "ModelErrorException",
  429: "ThrottlingException",
  500: "InternalServerException",
  503: "ServiceUnavailableException",
};

/**
 * Bedrock Runtime: `{"message": …}`, the type in `x-amzn-ErrorType`. The 429 text is AWS's
 * (throttled Converse calls in public reports); the others are [inferred], in AWS's style.
 */
function bedrockError(status: number, o: ErrorOptions, ids: IdSource): ErrorAnswer {
  const type = o.type ?? BEDROCK_TYPES[status] ?? (status >= 500 ? "InternalServerException" : "ValidationException");
  const message =
    o.message ??
    (status === 429
      ? "Too many requests, please wait before trying again."
      : status === 404
        ? "The provided model identifier is invalid."
        : status === 503
          ? "Bedrock is unable to process your request."
          : status >= 500
            ? "The server encountered an internal error while processing the request."
            : "The request is invalid.");
  const headers = { "x-amzn-errortype": `${type}:http://internal.amazon.com/coral/com.amazon.bedrock/`, "x-amzn-requestid": ids.uuid() };
  return { status, body: { message }, headers, type, message };
}

/**
 * Ollama: `{"error": "…"}` (its only shape). 404 for a model not pulled and 503 for a full queue
 * in Ollama's words (server/routes.go, server/sched.go); the others are ours.
 */
function ollamaError(status: number, o: ErrorOptions): ErrorAnswer {
  const message =
    o.message ??
    (status === 404
      ? `model "${o.model ?? "qwen3:8b"}" not found, try pulling it first`
      : status === 429 || status === 503
        ? "server busy, please try again.  maximum pending requests exceeded"
        : status >= 500
          ? "an error was encountered while running the model: unexpected EOF"
          : "invalid request");
  return { status, body: { error: message }, headers: {}, type: o.type ?? `http_${status}`, message };
}

/** An error answer of `provider` for `status`. */
export function providerError(provider: Provider, status: number, options: ErrorOptions, ids: IdSource): ErrorAnswer {
  let answer: ErrorAnswer;
  switch (provider) {
    case "anthropic":
      answer = anthropicError(status, options, ids);
      break;
    case "gemini":
      answer = geminiError(status, options);
      break;
    case "mistral":
      answer = mistralError(status, options, ids);
      break;
    case "kimi":
      answer = kimiError(status, options);
      break;
    case "deepseek":
      answer = deepseekError(status, options);
      break;
    case "bedrock-converse":
      answer = bedrockError(status, options, ids);
      break;
    case "ollama":
      answer = ollamaError(status, options);
      break;
    default:
      answer = openaiError(status, options, ids);
  }
  const retryAfter = options.retryAfter ?? (status === 429 ? 1 : undefined);
  if (retryAfter !== undefined) answer.headers["retry-after"] = String(retryAfter);
  return answer;
}

/** Anthropic rules whose text starts `messages: ` rather than with the JSON path. */
const MESSAGES_PREFIX_RULES: ReadonlySet<string> = new Set(["ANT-01", "ANT-02", "ANT-09"]);

/** `$.messages[3].content[0]` → `messages.3.content.0` (Anthropic's prefix style). */
function anthropicPath(path: string): string {
  return path.replace(/^\$\.?/, "").replace(/\[(\d+)\]/g, ".$1");
}

/** `$.messages[3].role` → `messages.[3].role` (OpenAI's `param` style). */
function openaiParam(path: string): string | null {
  const p = path.replace(/^\$\.?/, "").replace(/\[(\d+)\]/g, ".[$1]");
  return p === "" ? null : p;
}

/**
 * The answer a provider gives to a body that breaks `violation` (the first one found): 400 in the
 * provider's shape, quoting the provider's text as the validator has it. Anthropic prefixes the
 * JSON path (`messages.12.content.0: …`); Mistral uses its `type` / `code` pairs
 * (`invalid_function_call` / 3280 for ids, `invalid_request_message_order` / 3230 for order);
 * a Responses reference to an item that was not stored is a 404, as OpenAI answers it.
 */
export function violationError(provider: Provider, violation: Violation, model: string | undefined, ids: IdSource): ErrorAnswer {
  const v = violation;
  switch (provider) {
    case "anthropic": {
      // Role and empty-text errors say `messages: …`; the others name the JSON path.
      const prefix = MESSAGES_PREFIX_RULES.has(v.rule) ? "messages" : anthropicPath(v.path);
      const message = prefix.startsWith("messages") && !v.message.startsWith("messages") ? `${prefix}: ${v.message}` : v.message;
      return providerError(provider, 400, { message }, ids);
    }
    case "mistral": {
      if (v.rule === "MIS-01") return providerError(provider, 400, { message: v.message, type: "invalid_function_call", code: "3280" }, ids);
      if (v.rule === "MIS-02" || v.rule === "MIS-03")
        return providerError(provider, 400, { message: v.message, type: "invalid_request_message_order", code: "3230" }, ids);
      return providerError(provider, 400, { message: v.message }, ids);
    }
    case "openai-chat":
    case "openai-responses":
    case "openai-compatible": {
      const code =
        v.rule === "OAC-03" || v.rule === "ORS-08"
          ? v.message.includes("empty string")
            ? "empty_string"
            : "string_above_max_length"
          : v.rule === "OAC-05"
            ? "invalid_value"
            : null;
      const status = v.rule === "ORS-05" ? 404 : 400;
      return providerError(provider, status, { message: v.message, param: openaiParam(v.path), code, model }, ids);
    }
    default:
      return providerError(provider, 400, { message: v.message, model }, ids);
  }
}
