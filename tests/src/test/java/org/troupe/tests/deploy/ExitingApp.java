package org.troupe.tests.deploy;

import java.time.Duration;
import org.troupe.deploy.Deployment;

/**
 * An application run by bin/deploy in the tests: it prints its deployment's id once its nodes are there, then
 * exits the JVM abruptly ("exit") or waits to be killed ("wait").
 */
public final class ExitingApp {
    private ExitingApp() {}

    public static void main(final String[] args) throws InterruptedException {
        final Deployment d = Deployment.current();
        d.virtualNode("workers").waitForNodes(2, Duration.ofMinutes(2));
        System.out.println(
                "deployment " + d.id() + " nodes " + d.virtualNode("workers").size());
        System.out.flush();
        if (args[0].equals("exit")) {
            System.exit(3);
        }
        Thread.sleep(Duration.ofMinutes(5));
    }
}
