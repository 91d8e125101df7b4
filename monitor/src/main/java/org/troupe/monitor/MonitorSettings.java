package org.troupe.monitor;

import java.time.Duration;
import org.apache.commons.configuration2.ImmutableConfiguration;

/**
 * How a launcher's monitor serves: where it listens, how often the console is updated, and whether the console may
 * change the run. Read from {@code troupe.monitor.*} (docs/CONFIGURATION.md).
 *
 * @param bindAddress the interface the console listens on ({@code troupe.monitor.bindAddress}, loopback by default)
 * @param port its port, 0 for any free one ({@code --monitor=PORT})
 * @param update how often the console's page is sent the run's state ({@code troupe.monitor.updateMillis})
 * @param control whether the console may pause, resume or stop the run and kill a node JVM
 *     ({@code troupe.monitor.control})
 */
public record MonitorSettings(String bindAddress, int port, Duration update, boolean control) {
    public static final String BIND_ADDRESS_PROP_NAME = "troupe.monitor.bindAddress";
    public static final String UPDATE_PROP_NAME = "troupe.monitor.updateMillis";
    public static final String CONTROL_PROP_NAME = "troupe.monitor.control";

    public MonitorSettings {
        if (port < 0 || port > 65_535) {
            throw new IllegalArgumentException("--monitor takes a port from 0 to 65535, not " + port);
        }
        if (update.toMillis() < 100) {
            throw new IllegalArgumentException(
                    UPDATE_PROP_NAME + " must be at least 100 (ms), not " + update.toMillis());
        }
        if (bindAddress == null || !bindAddress.matches("[0-9A-Za-z._:%-]+")) {
            throw new IllegalArgumentException(BIND_ADDRESS_PROP_NAME
                    + " must be an address or host name of this host, not '" + bindAddress + "'");
        }
    }

    /** The settings' values, with the console on {@code port}. */
    public static MonitorSettings of(final ImmutableConfiguration settings, final int port) {
        final String update = settings.getString(UPDATE_PROP_NAME, "1000").strip();
        final String control = settings.getString(CONTROL_PROP_NAME, "false").strip();
        if (!update.matches("[0-9]{1,9}")) {
            throw new IllegalArgumentException(
                    UPDATE_PROP_NAME + " must be a number of milliseconds, not '" + update + "'");
        }
        if (!control.equals("true") && !control.equals("false")) {
            throw new IllegalArgumentException(CONTROL_PROP_NAME + " must be true or false, not '" + control + "'");
        }
        return new MonitorSettings(
                settings.getString(BIND_ADDRESS_PROP_NAME, "127.0.0.1").strip(),
                port,
                Duration.ofMillis(Long.parseLong(update)),
                Boolean.parseBoolean(control));
    }

    /**
     * The port a launcher's {@code --monitor[=PORT]} option asks for: 0 for {@code --monitor}, else PORT.
     *
     * @throws IllegalArgumentException if PORT is not a port
     */
    public static int portOf(final String option) {
        if (option.equals("--monitor")) {
            return 0;
        }
        final String port = option.substring("--monitor=".length());
        if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) > 65_535) {
            throw new IllegalArgumentException("--monitor takes a port from 0 to 65535 (--monitor=8080), or none for"
                    + " any free one; not '" + port + "'");
        }
        return Integer.parseInt(port);
    }
}
