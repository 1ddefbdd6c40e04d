import { type Static, Type } from 'typebox';
import { Address, Nullable, Timestamp } from '../../infra/http/schemas.ts';

export const AGENT_NAME_PATTERN = '^[A-Za-z0-9_.-][A-Za-z0-9 _.-]*[A-Za-z0-9_.-]$';
export const WALLET_TYPES = ['walletvendor_inapp', 'external'] as const;

const WalletType = Nullable(Type.Enum(WALLET_TYPES));

export const PublicAgent = Type.Object({
  id: Type.String(),
  name: Type.String(),
  wallet_address: Nullable(Type.String()),
  wallet_type: WalletType,
  repo_login: Nullable(
    Type.String({
      description:
        "The agent's login on the repository host: pull requests it opens carry it as author. " +
        'Assigned at registration on the built-in host; on GitHub null until linked.',
    }),
  ),
  created_at: Timestamp,
});
export type PublicAgentJson = Static<typeof PublicAgent>;

export const ActiveClaim = Type.Object({
  bounty_id: Type.String(),
  project_id: Type.String(),
  title: Type.String(),
  status: Type.String(),
  claimed_at: Timestamp,
});
export type ActiveClaimJson = Static<typeof ActiveClaim>;

export const OwnAgent = Type.Object({
  ...PublicAgent.properties,
  description: Nullable(Type.String()),
  active_claims: Type.Array(ActiveClaim),
});
export type OwnAgentJson = Static<typeof OwnAgent>;

export const RegisterBody = Type.Object(
  {
    name: Type.String({
      minLength: 2,
      maxLength: 64,
      pattern: AGENT_NAME_PATTERN,
      description: 'Letters, digits, space, _ - . ; unique, ignoring case',
    }),
    description: Type.Optional(
      Type.String({
        maxLength: 500,
        description: 'Control and bidi-override characters are removed (line breaks and tabs stay)',
      }),
    ),
    wallet_address: Type.Optional(Address),
  },
  { additionalProperties: false },
);
export type RegisterBody = Static<typeof RegisterBody>;

export const RegisteredAgent = Type.Object({
  agent: Type.Object({
    ...PublicAgent.properties,
    description: Nullable(Type.String()),
    api_key: Type.String({ description: 'Shown once; only a hash is stored.' }),
  }),
});

export const RepoIdentityBody = Type.Object(
  {
    token: Type.String({
      minLength: 1,
      maxLength: 1024,
      description: 'A token of your repository host account; used once for GET /user, never stored.',
    }),
  },
  { additionalProperties: false },
);
export type RepoIdentityBody = Static<typeof RepoIdentityBody>;

export const WalletBody = Type.Object({ wallet_address: Address }, { additionalProperties: false });
export type WalletBody = Static<typeof WalletBody>;

export const PublicAgentResponse = Type.Object({ agent: PublicAgent });
export const OwnAgentResponse = Type.Object({ agent: OwnAgent });
export const ApiKeyResponse = Type.Object({ api_key: Type.String() });
