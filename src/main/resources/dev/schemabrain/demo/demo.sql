-- The demo database's schema: a small B2B SaaS company in SQLite. DemoDatabase runs it, then fills
-- the tables with generated rows. Each statement ends with a semicolon at the end of a line; comments inside
-- a statement stay, since SQLite keeps them in the schema a client reads back.

CREATE TABLE plans (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE,
  monthly_price_cents NUMERIC NOT NULL,  -- per seat
  seat_limit INTEGER,                    -- NULL means unlimited
  is_public INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE organizations (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL,
  industry TEXT,
  street TEXT,
  city TEXT,
  postal_code TEXT,
  country TEXT NOT NULL,                 -- ISO 3166-1 alpha-2
  created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE users (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  email TEXT NOT NULL UNIQUE,
  first_name TEXT NOT NULL,
  last_name TEXT NOT NULL,
  phone_number TEXT,
  password_hash TEXT NOT NULL,
  date_of_birth DATE,
  role TEXT NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'admin', 'member')),
  created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE teams (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  name TEXT NOT NULL,
  created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  UNIQUE (organization_id, name)
);

CREATE TABLE team_members (
  team_id INTEGER NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id INTEGER NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  joined_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  PRIMARY KEY (team_id, user_id)
);

CREATE TABLE projects (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  team_id INTEGER REFERENCES teams(id),
  name TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'on_hold', 'archived')),
  created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE subscriptions (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  plan_id INTEGER NOT NULL REFERENCES plans(id),
  status TEXT NOT NULL CHECK (status IN ('trialing', 'active', 'past_due', 'canceled')),
  billing_interval TEXT NOT NULL DEFAULT 'month' CHECK (billing_interval IN ('month', 'year')),
  seats INTEGER NOT NULL DEFAULT 1,
  started_at TIMESTAMP NOT NULL,
  canceled_at TIMESTAMP
);

CREATE TABLE invoices (
  id INTEGER PRIMARY KEY,
  subscription_id INTEGER NOT NULL REFERENCES subscriptions(id),
  invoice_number TEXT NOT NULL UNIQUE,
  status TEXT NOT NULL CHECK (status IN ('open', 'paid', 'void', 'uncollectible')),
  issued_at TIMESTAMP NOT NULL,
  due_date DATE NOT NULL,
  tax_cents NUMERIC NOT NULL DEFAULT 0,
  total_cents NUMERIC NOT NULL,          -- line items plus tax
  amount_due_cents NUMERIC NOT NULL DEFAULT 0  -- still owed
);

CREATE TABLE invoice_line_items (
  id INTEGER PRIMARY KEY,
  invoice_id INTEGER NOT NULL REFERENCES invoices(id) ON DELETE CASCADE,
  description TEXT NOT NULL,
  quantity INTEGER NOT NULL DEFAULT 1,
  unit_price_cents NUMERIC NOT NULL,
  amount_cents NUMERIC NOT NULL
);

CREATE TABLE payments (
  id INTEGER PRIMARY KEY,
  invoice_id INTEGER NOT NULL REFERENCES invoices(id),
  amount_cents NUMERIC NOT NULL,
  currency TEXT NOT NULL DEFAULT 'USD',
  card_brand TEXT,
  card_number TEXT,
  card_last4 TEXT,
  status TEXT NOT NULL CHECK (status IN ('succeeded', 'failed', 'refunded')),
  created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  paid_at TIMESTAMP                      -- NULL for failed attempts
);

CREATE TABLE support_tickets (
  id INTEGER PRIMARY KEY,
  organization_id INTEGER NOT NULL REFERENCES organizations(id),
  user_id INTEGER REFERENCES users(id),
  subject TEXT NOT NULL,
  priority TEXT NOT NULL DEFAULT 'normal' CHECK (priority IN ('low', 'normal', 'high', 'urgent')),
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'pending', 'solved', 'closed')),
  created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  resolved_at TIMESTAMP
);

CREATE TABLE page_views (
  id INTEGER PRIMARY KEY,
  user_id INTEGER NOT NULL REFERENCES users(id),
  path TEXT NOT NULL,
  ip_address TEXT,
  user_agent TEXT,
  duration_seconds REAL,
  viewed_at TIMESTAMP NOT NULL
);

CREATE INDEX users_organization_id ON users (organization_id);

CREATE INDEX subscriptions_organization_id ON subscriptions (organization_id);

CREATE INDEX invoices_subscription_id ON invoices (subscription_id);

CREATE INDEX invoice_line_items_invoice_id ON invoice_line_items (invoice_id);

CREATE INDEX payments_invoice_id ON payments (invoice_id);

CREATE INDEX page_views_user_id_viewed_at ON page_views (user_id, viewed_at);
