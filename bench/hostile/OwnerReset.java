import io.ricochet.rpc.proto.Envelope;
import io.ricochet.rpc.proto.Kind;
import io.ricochet.rpc.proto.Route;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;

/**
 * The reliability issue's fault 7, as reported: a route owner registers at an echo server's agent, receives a
 * forwarded call, and closes with a reset (SO_LINGER 0); 0.3 s later the call in flight should have failed
 * UNAVAILABLE and a new call should find no route (NOT_FOUND). Ten rounds; prints each and the rounds where the call
 * in flight was still waiting (late) or the new call was forwarded to the dead owner (bad). Run against an echo
 * server's RPC port (any --transport), with its jar on the class path:
 *
 * <pre>java -cp echo-server.jar bench/hostile/OwnerReset.java RPC_PORT</pre>
 */
public final class OwnerReset {
    static void send(DataOutputStream out, Envelope e) throws IOException { byte[] b = e.toByteArray(); out.writeInt(b.length); out.write(b); out.flush(); }
    static Envelope recv(DataInputStream in) throws IOException { byte[] b = new byte[in.readInt()]; in.readFully(b); return Envelope.parseFrom(b); }
    public static void main(String[] a) throws Exception {
        int port = Integer.parseInt(a[0]);
        int bad = 0, late = 0;
        for (int round = 0; round < 10; round++) {
            String uri = "svc/r" + round + "-" + System.nanoTime();
            Socket owner = new Socket("127.0.0.1", port); owner.setSoTimeout(5000);
            DataOutputStream oo = new DataOutputStream(owner.getOutputStream()); DataInputStream oi = new DataInputStream(owner.getInputStream());
            send(oo, Envelope.newBuilder().setId(1).setKind(Kind.REQUEST).setMethod("agent.register").setPayload(Route.newBuilder().setUri(uri).build().toByteString()).build());
            Envelope r = recv(oi);
            Socket caller = new Socket("127.0.0.1", port); caller.setSoTimeout(5000);
            DataOutputStream co = new DataOutputStream(caller.getOutputStream()); DataInputStream ci = new DataInputStream(caller.getInputStream());
            send(co, Envelope.newBuilder().setId(7).setKind(Kind.REQUEST).setMethod(uri).setTimeoutMicros(8_000_000).build());
            Envelope fwd = recv(oi);
            owner.setSoLinger(true, 0); owner.close();
            long t0 = System.nanoTime();
            Thread.sleep(300);
            caller.setSoTimeout(1);
            boolean inflightDone;
            Envelope first = null;
            try { first = recv(ci); inflightDone = true; } catch (SocketTimeoutException e) { inflightDone = false; }
            caller.setSoTimeout(5000);
            Socket another = new Socket("127.0.0.1", port); another.setSoTimeout(5000);
            DataOutputStream ao = new DataOutputStream(another.getOutputStream()); DataInputStream ai = new DataInputStream(another.getInputStream());
            send(ao, Envelope.newBuilder().setId(9).setKind(Kind.REQUEST).setMethod(uri).setTimeoutMicros(8_000_000).build());
            Envelope second = recv(ai);
            if (first == null) first = recv(ci);
            System.out.println("round " + round + ": in-flight done by 0.3 s: " + inflightDone + " (" + first.getStatus() + "), new call: " + second.getStatus() + " " + second.getMessage());
            if (!inflightDone) late++;
            if (!second.getStatus().name().equals("NOT_FOUND")) bad++;
            caller.close(); another.close();
        }
        System.out.println("late " + late + " bad " + bad);
    }
}
