package org.troupe.deploy.descriptor;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlElementWrapper;
import jakarta.xml.bind.annotation.XmlElements;
import jakarta.xml.bind.annotation.XmlRootElement;
import jakarta.xml.bind.annotation.XmlSeeAlso;
import jakarta.xml.bind.annotation.XmlTransient;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import org.glassfish.jaxb.core.annotation.XmlLocation;
import org.xml.sax.Locator;

/**
 * The JAXB binding of troupe-deployment-1.xsd, as read: the schema has checked shapes and types already;
 * {@link DescriptorLoader} turns it into a checked {@link Descriptor}. Fields only, no logic.
 */
final class XmlModel {
    static final String NS = "urn:troupe:deployment:1";

    private XmlModel() {}

    @XmlRootElement(name = "deployment", namespace = NS)
    @XmlAccessorType(XmlAccessType.FIELD)
    static final class Deployment {
        @XmlElementWrapper(name = "variables", namespace = NS)
        @XmlElement(name = "variable", namespace = NS)
        List<Variable> variables = new ArrayList<>();

        @XmlElementWrapper(name = "virtualNodes", namespace = NS)
        @XmlElement(name = "virtualNode", namespace = NS)
        List<VirtualNode> virtualNodes = new ArrayList<>();

        @XmlElementWrapper(name = "mapping", namespace = NS)
        @XmlElement(name = "map", namespace = NS)
        List<MapEntry> mapping = new ArrayList<>();

        @XmlElementWrapper(name = "infrastructure", namespace = NS)
        @XmlElements({
            @XmlElement(name = "jvm", namespace = NS, type = Jvm.class),
            @XmlElement(name = "local", namespace = NS, type = Launcher.class),
            @XmlElement(name = "ssh", namespace = NS, type = Ssh.class),
            @XmlElement(name = "pbs", namespace = NS, type = Pbs.class),
            @XmlElement(name = "slurm", namespace = NS, type = Slurm.class)
        })
        List<Process> processes = new ArrayList<>();
    }

    @XmlAccessorType(XmlAccessType.FIELD)
    static final class Variable {
        @XmlAttribute
        String name;

        @XmlAttribute
        String value;
    }

    @XmlAccessorType(XmlAccessType.FIELD)
    static final class VirtualNode {
        @XmlLocation
        @XmlTransient
        Locator where;

        @XmlAttribute
        String name;

        @XmlAttribute
        BigInteger capacity;

        @XmlAttribute
        Boolean greedy;
    }

    @XmlAccessorType(XmlAccessType.FIELD)
    static final class MapEntry {
        @XmlLocation
        @XmlTransient
        Locator where;

        @XmlAttribute
        String virtualNode;

        @XmlElement(name = "processRef", namespace = NS)
        List<Ref> processRefs = new ArrayList<>();
    }

    @XmlAccessorType(XmlAccessType.FIELD)
    static final class Ref {
        @XmlLocation
        @XmlTransient
        Locator where;

        @XmlAttribute
        String id;
    }

    @XmlAccessorType(XmlAccessType.FIELD)
    @XmlSeeAlso({Jvm.class, Launcher.class})
    abstract static class Process {
        @XmlLocation
        @XmlTransient
        Locator where;

        @XmlAttribute
        String id;
    }

    @XmlAccessorType(XmlAccessType.FIELD)
    static final class Jvm extends Process {
        @XmlElement(namespace = NS)
        String javaHome;

        @XmlElement(namespace = NS)
        String classpath;

        @XmlElement(name = "jvmOption", namespace = NS)
        List<String> jvmOptions = new ArrayList<>();

        @XmlElement(name = "env", namespace = NS)
        List<Variable> env = new ArrayList<>();

        @XmlAttribute
        BigInteger count;

        @XmlAttribute
        BigInteger nodesPerJvm;
    }

    /** {@code <local>}, and the base of the other launchers. */
    @XmlAccessorType(XmlAccessType.FIELD)
    @XmlSeeAlso({Ssh.class, Pbs.class, Slurm.class})
    static class Launcher extends Process {
        @XmlElement(name = "processRef", namespace = NS)
        Ref child;
    }

    @XmlAccessorType(XmlAccessType.FIELD)
    static final class Ssh extends Launcher {
        @XmlAttribute
        String host;

        @XmlAttribute
        Integer port;

        @XmlAttribute
        String user;

        @XmlAttribute
        String privateKey;

        @XmlAttribute
        String knownHosts;

        @XmlAttribute
        Boolean stage;
    }

    @XmlAccessorType(XmlAccessType.FIELD)
    static final class Pbs extends Launcher {
        @XmlAttribute
        BigInteger nodes;

        @XmlAttribute
        BigInteger processorsPerNode;

        @XmlAttribute
        String walltime;

        @XmlAttribute
        String queue;
    }

    @XmlAccessorType(XmlAccessType.FIELD)
    static final class Slurm extends Launcher {
        @XmlAttribute
        BigInteger nodes;

        @XmlAttribute
        BigInteger tasks;

        @XmlAttribute
        String time;

        @XmlAttribute
        String partition;
    }
}
