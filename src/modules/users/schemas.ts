// Request and response schemas of the profile: the full user (DESIGN.md: what the dashboard and the
// profile show) and the profile update (name 2..60, username 3..30 of [a-z0-9_.]).
import { Type } from 'typebox';

const Nullable = <T extends ReturnType<typeof Type.String>>(schema: T) => Type.Union([schema, Type.Null()]);

export const FullUserSchema = Type.Object({
  id: Type.Integer(),
  phone: Type.String(),
  country: Type.String(),
  name: Nullable(Type.String()),
  username: Nullable(Type.String()),
  avatar: Type.String({ description: 'Path starting with /, served without a token' }),
  affiliation_code: Type.String(),
  credits_balance: Type.Integer(),
  money_balance: Type.Integer({ description: 'XAF' }),
});

export const USERNAME_PATTERN = '^[a-z0-9_.]{3,30}$';

export const UpdateProfileBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 2, maxLength: 60 })),
    username: Type.Optional(
      Type.String({ minLength: 3, maxLength: 30, pattern: USERNAME_PATTERN, examples: ['jean.dupont_237'] }),
    ),
  },
  { description: 'At least one field' },
);
