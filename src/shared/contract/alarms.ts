import { z } from 'zod';
import { factoryIdSchema, isoTime, optionalFactorySchema, webhookUidSchema } from './common.js';
import { method } from './define.js';

/** `link`: a provider link's check found a problem (PRODUCT §19); it ends when a check passes. */
export const ALARM_KINDS = ['quiet', 'auth', 'link'] as const;
export type AlarmKind = (typeof ALARM_KINDS)[number];

/** Unless a webhook says otherwise: this many Rejected (auth) in a row, and nothing else newer. */
export const DEFAULT_AUTH_FAILURE_STREAK = 5;
export const MAX_EXPECTED_EVERY_MINUTES = 30 * 24 * 60;

export const alarmSettingsSchema = z.object({
  uid: webhookUidSchema,
  /** "At least one accepted delivery every N minutes"; null: no cadence alarm. */
  expectedEveryMinutes: z.number().int().nullable(),
  /** Alarm when the newest N log entries are all Rejected (auth); null: never. */
  authFailureStreak: z.number().int().nullable(),
});
export type AlarmSettings = z.infer<typeof alarmSettingsSchema>;

export const alarmSchema = z.object({
  webhookUid: z.string(),
  webhookName: z.string(),
  kind: z.enum(ALARM_KINDS),
  /** When the episode began: the cadence ran out, or the streak reached its length. */
  since: isoTime,
  /** What is wrong, in plain words. */
  message: z.string(),
});
export type Alarm = z.infer<typeof alarmSchema>;

const argument = z.string().max(4096, 'must be at most 4096 characters');

/** How a factory hears of an alarm and of its recovery. */
export const alarmNotificationSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({
      kind: z.literal('command'),
      command: z.string().min(1, 'must name a program').max(4096),
      args: z.array(argument).max(100).default([]),
      timeoutSeconds: z.number().int().min(1).max(600).default(30),
    }),
    z.strictObject({
      kind: z.literal('http'),
      url: z
        .string()
        .max(4096)
        .refine((value) => URL.canParse(value) && /^https?:$/.test(new URL(value).protocol), {
          message: 'must be an http:// or https:// URL',
        })
        .refine(
          (value) =>
            !URL.canParse(value) ||
            (new URL(value).username === '' && new URL(value).password === ''),
          { message: 'must not contain a user name or password' },
        ),
      timeoutSeconds: z.number().int().min(1).max(120).default(10),
    }),
  ],
  { error: () => 'must be a notification whose "kind" is "command" or "http" (or null: none)' },
);
export type AlarmNotification = z.infer<typeof alarmNotificationSchema>;

const notificationOutput = z.object({
  factory: factoryIdSchema,
  notification: alarmNotificationSchema.nullable(),
});

export const alarmMethods = {
  'alarms.list': method({
    role: 'view',
    summary: "Alarms raised now (quiet webhooks, Rejected (auth) streaks) in a factory's webhooks",
    http: { method: 'GET', path: '/api/alarms' },
    input: z.object({ factory: optionalFactorySchema }),
    output: z.object({ items: z.array(alarmSchema) }),
  }),
  'webhooks.alarms': method({
    role: 'view',
    summary: "A webhook's alarm settings: expected cadence and Rejected (auth) streak",
    http: { method: 'GET', path: '/api/webhooks/:uid/alarms' },
    input: z.object({ uid: webhookUidSchema }),
    output: alarmSettingsSchema,
  }),
  'webhooks.setAlarms': method({
    role: 'manage',
    summary: "Set a webhook's expected cadence or Rejected (auth) streak (null turns one off)",
    http: { method: 'PATCH', path: '/api/webhooks/:uid/alarms' },
    input: z.strictObject({
      uid: webhookUidSchema,
      expectedEveryMinutes: z
        .number()
        .int('must be a whole number of minutes')
        .min(1, 'must be at least 1 minute')
        .max(MAX_EXPECTED_EVERY_MINUTES, 'must be at most 30 days (43,200 minutes)')
        .nullable()
        .optional(),
      authFailureStreak: z
        .number()
        .int('must be a whole number')
        .min(1, 'must be at least 1')
        .max(1000, 'must be at most 1,000')
        .nullable()
        .optional(),
    }),
    output: alarmSettingsSchema,
  }),
  'factories.alarmNotification': method({
    role: 'view',
    summary: 'How a factory is told about alarms and recoveries (a command or an HTTP POST)',
    http: { method: 'GET', path: '/api/factories/:id/alarm-notification' },
    input: z.object({ id: factoryIdSchema }),
    output: notificationOutput,
  }),
  'factories.setAlarmNotification': method({
    role: 'manage',
    summary: 'Set how a factory is told about alarms (null: not at all)',
    http: { method: 'PATCH', path: '/api/factories/:id/alarm-notification' },
    input: z.strictObject({
      id: factoryIdSchema,
      notification: alarmNotificationSchema.nullable(),
    }),
    output: notificationOutput,
  }),
};
