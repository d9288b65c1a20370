import { applyDecorators } from '@nestjs/common';
import { ApiBadRequestResponse, ApiExtraModels, ApiUnauthorizedResponse, getSchemaPath } from '@nestjs/swagger';
import { OAuthFormErrorDto, OAuthJsonErrorDto } from './oauth.dto';

const errorContent = (codes: string) => ({
  'application/json': {
    schema: { oneOf: [{ $ref: getSchemaPath(OAuthJsonErrorDto) }, { $ref: getSchemaPath(OAuthFormErrorDto) }] },
    examples: {
      json: { summary: 'To a JSON request', value: { error: { code: codes.split(', ')[0], message: '...' } } },
      form: { summary: 'To a form-encoded request (RFC 6749 §5.2)', value: { error: codes.split(', ')[0], error_description: '...' } },
    },
  },
});

/** The 400/401 responses of the token and revocation endpoints, in both dialects. */
export function ApiOAuthErrors(badRequestCodes: string): MethodDecorator & ClassDecorator {
  return applyDecorators(
    ApiExtraModels(OAuthJsonErrorDto, OAuthFormErrorDto),
    ApiBadRequestResponse({
      description: `${badRequestCodes}. A JSON request gets the contract's error object with the RFC code in error.code; a form-encoded request gets {error, error_description}.`,
      content: errorContent(badRequestCodes),
    }),
    ApiUnauthorizedResponse({
      description: 'invalid_client: unknown client, wrong secret or no client authentication. With WWW-Authenticate: Basic when HTTP Basic was used.',
      content: errorContent('invalid_client'),
    }),
  );
}
