/**
 * Troupe's settings: one place that reads them, in the order built-in defaults &lt; {@code troupe.properties} &lt;
 * system properties &lt; environment. Every key is documented in {@code docs/CONFIGURATION.md}; each component
 * turns the settings into its own typed configuration once (e.g.
 * {@link org.troupe.serialization.SerializationConfig#fromSettings}), never on a hot path.
 */
package org.troupe.config;
