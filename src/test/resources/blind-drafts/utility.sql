-- A second blind schema, written after the drafting rules were changed and scored without changing them again
-- (a hold-out): a utility metering company. Traps: a bill status and a payment outcome, a sandbox flag, a soft
-- delete, lines dated by their bill, a payment in its bill's currency, per-unit rates, a standing charge, a credit
-- limit, meter multipliers and digits, cumulative register readings, daily balance snapshots.

CREATE TABLE tariffs (
  id                       integer PRIMARY KEY,
  name                     varchar(80) NOT NULL,
  unit_rate_per_kwh        numeric(8,5) NOT NULL,
  standing_charge_per_day  numeric(8,5) NOT NULL,
  valid_from               date NOT NULL,
  is_archived              boolean NOT NULL DEFAULT false
);

CREATE TABLE customers (
  id               integer PRIMARY KEY,
  account_number   varchar(12) NOT NULL UNIQUE,
  name             varchar(200) NOT NULL,
  email            varchar(200),
  tariff_id        integer NOT NULL REFERENCES tariffs(id),
  opened_on        date NOT NULL,
  credit_limit     numeric(10,2),
  account_balance  numeric(12,2) NOT NULL DEFAULT 0,
  is_deleted       boolean NOT NULL DEFAULT false
);

CREATE TABLE premises (
  id           integer PRIMARY KEY,
  customer_id  integer NOT NULL REFERENCES customers(id),
  address      varchar(200) NOT NULL,
  postcode     varchar(10) NOT NULL,
  meter_count  integer NOT NULL DEFAULT 1
);

CREATE TABLE meters (
  id            integer PRIMARY KEY,
  premise_id    integer NOT NULL REFERENCES premises(id),
  serial_no     varchar(20) NOT NULL UNIQUE,
  installed_on  date NOT NULL,
  multiplier    numeric(6,2) NOT NULL DEFAULT 1,
  digits        smallint NOT NULL DEFAULT 6
);

CREATE TABLE meter_readings (
  id               integer PRIMARY KEY,
  meter_id         integer NOT NULL REFERENCES meters(id),
  read_at          timestamp NOT NULL,
  read_type        varchar(10) NOT NULL CHECK (read_type IN ('actual', 'estimated', 'customer')),
  register_kwh     numeric(12,1) NOT NULL,
  consumption_kwh  numeric(10,1) NOT NULL
);

CREATE TABLE bills (
  id            integer PRIMARY KEY,
  customer_id   integer NOT NULL REFERENCES customers(id),
  issued_on     date NOT NULL,
  period_start  date NOT NULL,
  period_end    date NOT NULL,
  status        varchar(12) NOT NULL CHECK (status IN ('draft', 'issued', 'paid', 'overdue', 'cancelled', 'written_off')),
  currency      char(3) NOT NULL,
  net_amount    numeric(12,2) NOT NULL,
  vat_amount    numeric(12,2) NOT NULL,
  gross_amount  numeric(12,2) NOT NULL,
  vat_rate      numeric(5,2) NOT NULL,
  is_sandbox    boolean NOT NULL DEFAULT false
);

CREATE TABLE bill_lines (
  id           integer PRIMARY KEY,
  bill_id      integer NOT NULL REFERENCES bills(id),
  description  varchar(200) NOT NULL,
  units_kwh    numeric(10,1),
  unit_rate    numeric(8,5),
  line_total   numeric(12,2) NOT NULL
);

CREATE TABLE payments (
  id           integer PRIMARY KEY,
  bill_id      integer NOT NULL REFERENCES bills(id),
  received_at  timestamp NOT NULL,
  method       varchar(20) NOT NULL,
  outcome      varchar(10) NOT NULL CHECK (outcome IN ('cleared', 'bounced', 'pending', 'reversed')),
  amount       numeric(12,2) NOT NULL
);

CREATE TABLE direct_debit_mandates (
  id           integer PRIMARY KEY,
  customer_id  integer NOT NULL REFERENCES customers(id),
  created_at   timestamp NOT NULL,
  status       varchar(10) NOT NULL CHECK (status IN ('active', 'cancelled', 'failed')),
  max_amount   numeric(10,2)
);

CREATE TABLE outages (
  id                  integer PRIMARY KEY,
  premise_id          integer NOT NULL REFERENCES premises(id),
  started_at          timestamp NOT NULL,
  ended_at            timestamp,
  duration_minutes    integer,
  customers_affected  integer NOT NULL
);

CREATE TABLE daily_account_balances (
  id               integer PRIMARY KEY,
  customer_id      integer NOT NULL REFERENCES customers(id),
  as_of            date NOT NULL,
  currency         char(3) NOT NULL,
  closing_balance  numeric(12,2) NOT NULL
);

CREATE TABLE smart_meter_events (
  id              integer PRIMARY KEY,
  meter_id        integer NOT NULL REFERENCES meters(id),
  occurred_at     timestamp NOT NULL,
  event_code      varchar(10) NOT NULL,
  severity_level  smallint NOT NULL
);
