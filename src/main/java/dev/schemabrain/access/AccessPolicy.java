package dev.schemabrain.access;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The roles of an access policy file and the role of a caller whose credential names none
 * ({@code default_role}; empty is {@code none}: such a caller gets nothing).
 */
public record AccessPolicy(Map<String, Role> roles, Optional<String> defaultRole) {

    public AccessPolicy {
        roles = Collections.unmodifiableMap(new LinkedHashMap<>(roles));
        if (defaultRole.isPresent() && !roles.containsKey(defaultRole.get())) {
            throw new IllegalArgumentException("default_role " + defaultRole.get() + " is not a role");
        }
    }

    /** The roles marked {@code reviewer: true}, in the file's order. */
    public List<String> reviewerRoles() {
        return roles.values().stream().filter(Role::reviewer).map(Role::name).toList();
    }

    /**
     * Whether the credential's own role is a reviewer role. The default role never counts: a credential that names
     * no role is no reviewer, whatever default_role says.
     */
    public boolean reviews(Caller caller) {
        return caller.role().map(roles::get).filter(Role::reviewer).isPresent();
    }

    /** What this caller may reach: its credential's role, else the default role, else nothing. */
    public Access resolve(Caller caller) {
        Optional<String> name = caller.role().or(() -> defaultRole);
        if (name.isEmpty()) {
            return Access.nothing(caller, "the credential carries no role and the access policy's default_role is none");
        }
        Role role = roles.get(name.get());
        if (role == null) {
            return Access.nothing(caller, "the credential's role " + name.get() + " is not in the access policy");
        }
        return Access.of(caller, role, this);
    }
}
