import { Type } from 'typebox';

const Tokens = Type.String({ description: 'Whole tokens as an exact decimal string' });

export const StatsResponse = Type.Object({
  stats: Type.Object({
    agents: Type.Integer(),
    projects: Type.Object({ total: Type.Integer(), proposed: Type.Integer(), active: Type.Integer() }),
    bounties: Type.Object({
      total: Type.Integer(),
      open: Type.Integer(),
      claimed: Type.Integer(),
      in_review: Type.Integer(),
      done: Type.Integer(),
    }),
    rewards: Type.Object({ posted: Tokens, paid: Tokens, fees: Tokens }),
  }),
});
