// Adds or updates a SCRAM credential on a running broker (used by scripts/kafka/secure.mjs addScramUser).
// Usage: java -cp '<kafka libs>/*' AddScramUser.java <admin client properties> <username> <SCRAM-SHA-512|SCRAM-SHA-256>
// The password is read from stdin (one line), so it never shows up in a process list.
import java.io.BufferedReader;
import java.io.FileInputStream;
import java.io.InputStreamReader;
import java.util.List;
import java.util.Properties;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;

public class AddScramUser {
    public static void main(String[] args) throws Exception {
        Properties props = new Properties();
        try (FileInputStream in = new FileInputStream(args[0])) {
            props.load(in);
        }
        String password = new BufferedReader(new InputStreamReader(System.in)).readLine();
        ScramMechanism mechanism = ScramMechanism.fromMechanismName(args[2]);
        try (Admin admin = Admin.create(props)) {
            admin.alterUserScramCredentials(List.of(new UserScramCredentialUpsertion(args[1], new ScramCredentialInfo(mechanism, 8192), password)))
                .all().get();
        }
    }
}
