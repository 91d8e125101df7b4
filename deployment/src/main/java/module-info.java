/**
 * Deployment: the descriptor model (JAXB) and the process launchers (local, SSH, PBS, Slurm). Applications use
 * {@code org.troupe.deploy} and the checked descriptor ({@code org.troupe.deploy.descriptor}: what
 * {@code Deployment} is made from); the launchers ({@code org.troupe.deploy.launch}) are not exported.
 */
module org.troupe.deploy {
    requires transitive org.troupe.core;
    // Deployment.showIn(Monitor) shows the deployment in a launcher's console; launchers start one (--monitor).
    requires transitive org.troupe.monitor;
    requires jakarta.xml.bind;
    // XmlModel's @XmlLocation, the RI's annotation for the line and column of each element.
    requires org.glassfish.jaxb.core;
    requires java.xml;
    requires java.management;
    requires com.jcraft.jsch;
    requires org.slf4j;

    exports org.troupe.deploy;
    exports org.troupe.deploy.descriptor;

    // JAXB binds XmlModel's package-private classes and fields: jakarta.xml.bind passes the access on to the JAXB
    // runtime it finds (org.glassfish.jaxb.runtime, resolved as a provider of jakarta.xml.bind's service).
    opens org.troupe.deploy.descriptor to
            jakarta.xml.bind;
}
