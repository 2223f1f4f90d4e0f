// The hub's exception kinds. Each maps to one WebSocket error code in commands.ts and one REST
// status in rest.ts, the way Home Assistant maps them.

export interface Translation {
  domain: string;
  key: string;
  placeholders: Record<string, string> | null;
}

/** HomeAssistantError: code home_assistant_error on the socket, a bare 500 over REST. */
export class HomeAssistantError extends Error {
  constructor(
    message: string,
    readonly translation?: Translation,
  ) {
    super(message);
  }
}

/** ServiceValidationError: code service_validation_error, message prefixed "Validation error: ". */
export class ServiceValidationError extends HomeAssistantError {}

export class ServiceNotFoundError extends HomeAssistantError {
  constructor(
    readonly domain: string,
    readonly service: string,
  ) {
    super(`Service ${domain}.${service} not found.`, {
      domain: 'homeassistant',
      key: 'service_not_found',
      placeholders: { domain, service },
    });
  }
}

export class UnauthorizedError extends HomeAssistantError {
  constructor() {
    super('Unauthorized');
  }
}
