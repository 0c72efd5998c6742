/**
 * The A2A 1.0 AgentCard as a JSON Schema (2020-12), to hold every card the service serves to what a strict card
 * parser accepts: every object closed (`additionalProperties: false`) but `google.protobuf.Struct` (an extension's
 * `params`, a signature's `header`), which is free-form JSON by definition.
 *
 * Where it comes from: the normative definition is the proto, a2aproject/A2A `specification/a2a.proto` at tag v1.0.0
 * (its AgentCard messages are unchanged in v1.0.1), licensed Apache-2.0. The project publishes a JSON Schema only as
 * a non-normative build artifact of that proto (`a2a.json`, made by bufbuild's protoc-gen-jsonschema, not kept in
 * the repository) and no npm package ships one (@a2a-js/sdk 1.3.0 carries the proto's generated TypeScript, not a
 * schema), so this is written here from the proto: one `$defs` entry per message the card reaches, each field under
 * its ProtoJSON (lowerCamelCase) name, `required` the fields marked `(google.api.field_behavior) = REQUIRED`, a
 * `oneof` as an object holding exactly one of its members, `map<string, T>` as an object of T. Only the JSON names
 * are accepted (a ProtoJSON parser also takes the proto names): the service writes those, and a card that passes
 * here passes the looser form too.
 */
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';

const string = { type: 'string' } as const;
const strings = { type: 'array', items: string } as const;
const boolean = { type: 'boolean' } as const;
/** google.protobuf.Struct: any JSON object. */
const struct = { type: 'object' } as const;
const ref = (name: string) => ({ $ref: `#/$defs/${name}` });
const arrayOf = (name: string) => ({ type: 'array', items: ref(name) });
const mapOf = (value: object) => ({ type: 'object', additionalProperties: value });

/** A closed message: these properties, these required. */
function message(properties: Record<string, object>, required: string[] = []) {
  return { type: 'object', properties, required, additionalProperties: false };
}

/** A message that is one `oneof`: exactly one of its members. */
function oneof(members: Record<string, object>) {
  return { ...message(members), minProperties: 1, maxProperties: 1 };
}

export const AGENT_CARD_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: 'urn:paycall:test:a2a-1.0-agent-card',
  $ref: '#/$defs/AgentCard',
  $defs: {
    AgentCard: message(
      {
        name: string,
        description: string,
        supportedInterfaces: arrayOf('AgentInterface'),
        provider: ref('AgentProvider'),
        version: string,
        documentationUrl: string,
        capabilities: ref('AgentCapabilities'),
        securitySchemes: mapOf(ref('SecurityScheme')),
        securityRequirements: arrayOf('SecurityRequirement'),
        defaultInputModes: strings,
        defaultOutputModes: strings,
        skills: arrayOf('AgentSkill'),
        signatures: arrayOf('AgentCardSignature'),
        iconUrl: string,
      },
      ['name', 'description', 'supportedInterfaces', 'version', 'capabilities', 'defaultInputModes', 'defaultOutputModes', 'skills'],
    ),
    AgentInterface: message({ url: string, protocolBinding: string, tenant: string, protocolVersion: string }, ['url', 'protocolBinding', 'protocolVersion']),
    AgentProvider: message({ url: string, organization: string }, ['url', 'organization']),
    AgentCapabilities: message({ streaming: boolean, pushNotifications: boolean, extensions: arrayOf('AgentExtension'), extendedAgentCard: boolean }),
    AgentExtension: message({ uri: string, description: string, required: boolean, params: struct }),
    AgentSkill: message(
      {
        id: string,
        name: string,
        description: string,
        tags: strings,
        examples: strings,
        inputModes: strings,
        outputModes: strings,
        securityRequirements: arrayOf('SecurityRequirement'),
      },
      ['id', 'name', 'description', 'tags'],
    ),
    AgentCardSignature: message({ protected: string, signature: string, header: struct }, ['protected', 'signature']),
    StringList: message({ list: strings }),
    SecurityRequirement: message({ schemes: mapOf(ref('StringList')) }),
    SecurityScheme: oneof({
      apiKeySecurityScheme: ref('APIKeySecurityScheme'),
      httpAuthSecurityScheme: ref('HTTPAuthSecurityScheme'),
      oauth2SecurityScheme: ref('OAuth2SecurityScheme'),
      openIdConnectSecurityScheme: ref('OpenIdConnectSecurityScheme'),
      mtlsSecurityScheme: ref('MutualTlsSecurityScheme'),
    }),
    APIKeySecurityScheme: message({ description: string, location: string, name: string }, ['location', 'name']),
    HTTPAuthSecurityScheme: message({ description: string, scheme: string, bearerFormat: string }, ['scheme']),
    OAuth2SecurityScheme: message({ description: string, flows: ref('OAuthFlows'), oauth2MetadataUrl: string }, ['flows']),
    OpenIdConnectSecurityScheme: message({ description: string, openIdConnectUrl: string }, ['openIdConnectUrl']),
    MutualTlsSecurityScheme: message({ description: string }),
    OAuthFlows: oneof({
      authorizationCode: ref('AuthorizationCodeOAuthFlow'),
      clientCredentials: ref('ClientCredentialsOAuthFlow'),
      implicit: ref('ImplicitOAuthFlow'),
      password: ref('PasswordOAuthFlow'),
      deviceCode: ref('DeviceCodeOAuthFlow'),
    }),
    AuthorizationCodeOAuthFlow: message(
      { authorizationUrl: string, tokenUrl: string, refreshUrl: string, scopes: mapOf(string), pkceRequired: boolean },
      ['authorizationUrl', 'tokenUrl', 'scopes'],
    ),
    ClientCredentialsOAuthFlow: message({ tokenUrl: string, refreshUrl: string, scopes: mapOf(string) }, ['tokenUrl', 'scopes']),
    ImplicitOAuthFlow: message({ authorizationUrl: string, refreshUrl: string, scopes: mapOf(string) }),
    PasswordOAuthFlow: message({ tokenUrl: string, refreshUrl: string, scopes: mapOf(string) }),
    DeviceCodeOAuthFlow: message(
      { deviceAuthorizationUrl: string, tokenUrl: string, refreshUrl: string, scopes: mapOf(string) },
      ['deviceAuthorizationUrl', 'tokenUrl', 'scopes'],
    ),
  },
} as const;

const validate = new Ajv2020({ strict: true, allErrors: true }).compile(AGENT_CARD_SCHEMA);

/** What the schema refuses in `card`, one line per problem (`/capabilities: must NOT have additional properties (payments)`); [] when valid. */
export function agentCardProblems(card: unknown): string[] {
  if (validate(card)) return [];
  return (validate.errors ?? []).map((e: ErrorObject) => {
    const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : '';
    return `${e.instancePath || '/'}: ${e.message}${extra}`;
  });
}
