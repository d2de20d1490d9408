package dev.schemabrain.catalog;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a secret looks like when it is written down: password hashes in their crypt/LDAP/Django formats, JSON Web
 * Tokens, API keys whose issuers give them a prefix, private key blocks, a secret assigned in configuration text
 * ({@code password=…}, {@code "api_key": "…"}, {@code Bearer …}), and long random tokens.
 */
final class SecretShapes {

    /** bcrypt, argon2, scrypt, sha-crypt/md5-crypt, PBKDF2 (Django, passlib), LDAP {SSHA}, Django's legacy sha1/md5. */
    static final Pattern PASSWORD_HASH = Pattern.compile(
            "\\$2[abxy]?\\$\\d{2}\\$[./A-Za-z0-9]{53}"
                    + "|\\$argon2(?:id|i|d)\\$[^\\s$]+(?:\\$[^\\s$]+){2,3}"
                    + "|\\$scrypt\\$[^\\s$]+\\$[^\\s$]+\\$[^\\s$]+|\\$7\\$[./A-Za-z0-9]{14,}"
                    + "|\\$[156]\\$(?:rounds=\\d+\\$)?[./A-Za-z0-9]{1,16}\\$[./A-Za-z0-9]{22,86}"
                    + "|\\$pbkdf2(?:-sha\\d+)?\\$[^\\s$]+\\$[^\\s$]+\\$[^\\s$]+"
                    + "|pbkdf2[_:]sha(?:1|256|512)[$:]\\d+[$:][^\\s$:]+[$:][^\\s$:]+"
                    + "|\\{(?:SSHA|SHA|SSHA256|SSHA512|SHA256|SHA512|SMD5|MD5|CRYPT|PBKDF2[^}]{0,12}|ARGON2)\\}[^\\s]{8,}"
                    + "|(?:sha1|md5|bcrypt_sha256|argon2)\\$[^\\s$]*\\$[0-9a-zA-Z./+=$]{20,}");
    /** Header and payload are base64url JSON objects, so a JWT starts with "eyJ". */
    static final Pattern JWT = Pattern.compile("eyJ[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}\\.[A-Za-z0-9_-]{8,}");
    /** Issuer prefixes (GitHub, Stripe, OpenAI/Anthropic, AWS, Slack, Google, GitLab, SendGrid, npm, Hugging Face, Shopify, PyPI, DigitalOcean). */
    static final Pattern API_KEY = Pattern.compile(
            "(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{30,}|github_pat_[A-Za-z0-9_]{22,}"
                    + "|(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}|sk-(?:proj-|ant-(?:api\\d\\d-)?)?[A-Za-z0-9_-]{20,}"
                    + "|whsec_[A-Za-z0-9+/=]{20,}|(?:AKIA|ASIA|AGPA|AIDA|AROA|ANPA|AIPA)[A-Z0-9]{16}"
                    + "|xox[abposr]-[A-Za-z0-9-]{10,}|AIza[0-9A-Za-z_-]{35}|glpat-[A-Za-z0-9_-]{20,}"
                    + "|SG\\.[A-Za-z0-9_-]{16,}\\.[A-Za-z0-9_-]{16,}|npm_[A-Za-z0-9]{36}|hf_[A-Za-z0-9]{30,}"
                    + "|shp(?:at|ss|ca|pa)_[a-fA-F0-9]{32}|pypi-[A-Za-z0-9_-]{50,}|dop_v1_[a-f0-9]{64}"
                    + "|-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----)(?![A-Za-z0-9])");
    /** A secret written after its name in configuration or a log; group 1 is the value. */
    static final Pattern ASSIGNED = Pattern.compile(
            "(?i)(?<![A-Za-z])(?:password|passwd|pwd|passphrase|secret|token|api[_-]?key|access[_-]?key|secret[_-]?key"
                    + "|shared[_-]?access[_-]?key|client[_-]?secret|private[_-]?key|(?:authorization:\\s*)?(?:bearer|basic))"
                    + "[\"']?(?:\\s*[=:]\\s*|\\s+)[\"']?"
                    // the value mixes letters with digits or symbols: "token: expired" is a word, not a secret
                    + "((?=[^\\s\"',;&}]*[A-Za-z])(?=[^\\s\"',;&}]*[^A-Za-z\\s\"',;&}])[^\\s\"',;&}]{6,})");
    private static final Pattern TOKEN_CHARS = Pattern.compile("[A-Za-z0-9_+/=-]{24,}");
    private static final Pattern BASE32 = Pattern.compile("[A-Z2-7]{16,}");

    private SecretShapes() {
    }

    /** A whole value that is a password hash, a JWT, a prefixed API key or a random token. */
    static boolean isSecret(String v) {
        return PASSWORD_HASH.matcher(v).matches() || JWT.matcher(v).matches() || API_KEY.matcher(v).matches()
                || randomToken(v);
    }

    /** A secret inside a longer text: a hash, JWT or prefixed key anywhere, or a value assigned to a secret's name. */
    static boolean occursIn(String text) {
        return PASSWORD_HASH.matcher(text).find() || JWT.matcher(text).find() || API_KEY.matcher(text).find()
                || assigned(text).find();
    }

    /** The text with every secret inside it replaced by {@code placeholder}; an assigned value keeps its name. */
    static String redactIn(String text, String placeholder) {
        String out = text;
        for (Pattern p : new Pattern[]{PASSWORD_HASH, JWT, API_KEY}) {
            out = p.matcher(out).replaceAll(Matcher.quoteReplacement(placeholder));
        }
        Matcher m = assigned(out);
        StringBuilder sb = new StringBuilder();
        int last = 0;
        while (m.find()) {
            sb.append(out, last, m.start(1)).append(placeholder);
            last = m.end(1);
        }
        return sb.append(out.substring(last)).toString();
    }

    private static Matcher assigned(String text) {
        return ASSIGNED.matcher(text);
    }

    /**
     * A long random token: 24+ characters of a base64/base62 alphabet mixing upper case, lower case and digits with
     * high character entropy (hex digests and UUIDs are data fingerprints, not secrets), or an OTP seed in base32.
     */
    static boolean randomToken(String v) {
        if (BASE32.matcher(v).matches()) {
            long digits = v.chars().filter(Character::isDigit).count();
            return v.length() % 8 == 0 && digits >= 1 && v.length() - digits >= 8;
        }
        if (!TOKEN_CHARS.matcher(v).matches()) {
            return false;
        }
        long upper = v.chars().filter(Character::isUpperCase).count();
        long lower = v.chars().filter(Character::isLowerCase).count();
        long digits = v.chars().filter(Character::isDigit).count();
        return upper >= 2 && lower >= 2 && digits >= 2 && entropy(v) >= 4.0;
    }

    /** Shannon entropy in bits per character. */
    static double entropy(String v) {
        int[] counts = new int[128];
        int n = 0;
        for (char c : v.toCharArray()) {
            if (c < 128) {
                counts[c]++;
                n++;
            }
        }
        double h = 0;
        for (int count : counts) {
            if (count > 0) {
                double p = (double) count / n;
                h -= p * Math.log(p) / Math.log(2);
            }
        }
        return h;
    }
}
