-- A blind schema for the metric drafts (not tuned on): a ferry operator's ticketing, payments and
-- fleet. Written before the drafting rules were changed, with the traps a real schema has: statuses on
-- the money tables, currencies beside amounts, test bookings, soft deletes, lines dated by their header,
-- per-unit prices, rates, percentages, face values, minor units, sort orders and daily balance snapshots.
-- PostgreSQL dialect; CHECK (x IN (...)) lists are the statuses' domains.

CREATE TABLE currencies (
  id            integer PRIMARY KEY,
  iso_code      char(3) NOT NULL UNIQUE,
  name          varchar(60) NOT NULL,
  minor_units   smallint NOT NULL DEFAULT 2,
  exponent      smallint NOT NULL DEFAULT 2
);

CREATE TABLE ports (
  id            integer PRIMARY KEY,
  unlocode      char(5) NOT NULL UNIQUE,
  name          varchar(100) NOT NULL,
  country       char(2) NOT NULL,
  berth_count   integer NOT NULL,
  sort_order    integer NOT NULL DEFAULT 0
);

CREATE TABLE vessels (
  id                  integer PRIMARY KEY,
  name                varchar(100) NOT NULL,
  passenger_capacity  integer NOT NULL,
  vehicle_lane_metres numeric(8,1) NOT NULL,
  gross_tonnage       numeric(10,1) NOT NULL,
  commissioned_on     date NOT NULL,
  deleted_at          timestamp
);

CREATE TABLE routes (
  id                    integer PRIMARY KEY,
  origin_port_id        integer NOT NULL REFERENCES ports(id),
  destination_port_id   integer NOT NULL REFERENCES ports(id),
  distance_nm           numeric(6,1) NOT NULL,
  base_fare             numeric(10,2) NOT NULL,
  display_order         integer NOT NULL DEFAULT 0,
  is_active             boolean NOT NULL DEFAULT true
);

CREATE TABLE sailings (
  id              integer PRIMARY KEY,
  route_id        integer NOT NULL REFERENCES routes(id),
  vessel_id       integer NOT NULL REFERENCES vessels(id),
  departs_at      timestamp NOT NULL,
  arrives_at      timestamp NOT NULL,
  status          varchar(12) NOT NULL CHECK (status IN ('scheduled', 'boarding', 'departed', 'arrived', 'cancelled')),
  delay_minutes   integer,
  seats_remaining integer NOT NULL
);

CREATE TABLE fare_classes (
  id              integer PRIMARY KEY,
  code            varchar(10) NOT NULL UNIQUE,
  name            varchar(60) NOT NULL,
  fare_multiplier numeric(4,2) NOT NULL,
  sort_order      integer NOT NULL
);

CREATE TABLE travellers (
  id                 integer PRIMARY KEY,
  full_name          varchar(200) NOT NULL,
  email              varchar(200),
  birth_date         date,
  registered_at      timestamp NOT NULL,
  loyalty_points     integer NOT NULL DEFAULT 0,
  deleted_at         timestamp
);

CREATE TABLE promo_codes (
  id               integer PRIMARY KEY,
  code             varchar(20) NOT NULL UNIQUE,
  amount_off       numeric(10,2),
  percent_off      numeric(5,2),
  max_redemptions  integer,
  valid_from       date NOT NULL,
  valid_until      date
);

CREATE TABLE bookings (
  id               integer PRIMARY KEY,
  traveller_id     integer NOT NULL REFERENCES travellers(id),
  promo_code_id    integer REFERENCES promo_codes(id),
  reference        char(8) NOT NULL UNIQUE,
  booked_at        timestamp NOT NULL,
  status           varchar(12) NOT NULL CHECK (status IN ('held', 'confirmed', 'completed', 'cancelled', 'expired')),
  currency_code    char(3) NOT NULL,
  total_amount     numeric(12,2) NOT NULL,
  discount_amount  numeric(12,2) NOT NULL DEFAULT 0,
  is_test          boolean NOT NULL DEFAULT false,
  deleted_at       timestamp
);

CREATE TABLE booking_items (
  id               integer PRIMARY KEY,
  booking_id       integer NOT NULL REFERENCES bookings(id),
  sailing_id       integer NOT NULL REFERENCES sailings(id),
  fare_class_id    integer NOT NULL REFERENCES fare_classes(id),
  unit_price       numeric(10,2) NOT NULL,
  list_price       numeric(10,2) NOT NULL,
  quantity         integer NOT NULL,
  tax_rate_pct     numeric(5,2) NOT NULL,
  line_amount      numeric(12,2) NOT NULL
);

-- status is plain text here: its values come from the index (Column.values), not a CHECK.
CREATE TABLE payments (
  id               integer PRIMARY KEY,
  booking_id       integer NOT NULL REFERENCES bookings(id),
  attempted_at     timestamp NOT NULL,
  status           varchar(20) NOT NULL,
  currency_code    char(3) NOT NULL,
  amount           numeric(12,2) NOT NULL,
  processor_fee    numeric(10,2) NOT NULL DEFAULT 0,
  is_test          boolean NOT NULL DEFAULT false
);

-- status with neither a CHECK nor indexed values: only its name says it is one.
CREATE TABLE refunds (
  id               integer PRIMARY KEY,
  payment_id       integer NOT NULL REFERENCES payments(id),
  requested_at     timestamp NOT NULL,
  status           varchar(20) NOT NULL,
  amount           numeric(12,2) NOT NULL,
  reason           varchar(200)
);

CREATE TABLE wallet_balances (
  id               integer PRIMARY KEY,
  traveller_id     integer NOT NULL REFERENCES travellers(id),
  snapshot_date    date NOT NULL,
  currency_code    char(3) NOT NULL,
  balance_amount   numeric(12,2) NOT NULL
);

CREATE TABLE exchange_rates (
  id               integer PRIMARY KEY,
  currency_id      integer NOT NULL REFERENCES currencies(id),
  rate_date        date NOT NULL,
  rate_to_eur      numeric(12,6) NOT NULL
);

CREATE TABLE crew_shifts (
  id               integer PRIMARY KEY,
  vessel_id        integer NOT NULL REFERENCES vessels(id),
  starts_at        timestamp NOT NULL,
  hours_worked     numeric(5,2) NOT NULL,
  hourly_rate      numeric(8,2) NOT NULL,
  wage_amount      numeric(10,2) NOT NULL
);
