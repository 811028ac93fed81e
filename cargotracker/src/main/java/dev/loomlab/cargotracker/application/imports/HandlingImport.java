package dev.loomlab.cargotracker.application.imports;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.LocalDateTime;
import java.util.UUID;

/**
 * One uploaded file. Its id is ours, not the batch job's: Payara Micro keeps the job repository in
 * memory, so execution numbers start again at 1 after a restart while our records stay.
 */
@Entity
@Table(name = "handling_import")
public class HandlingImport {

    @Id
    @Column(length = 36)
    private String id;

    @Column(name = "execution_id", nullable = false)
    private long executionId;

    @Column(name = "uploaded_at", nullable = false)
    private LocalDateTime uploadedAt;

    @Column(name = "file_path", length = 500, nullable = false)
    private String filePath;

    protected HandlingImport() {
        // for JPA
    }

    public HandlingImport(UUID id, String filePath, LocalDateTime uploadedAt) {
        this.id = id.toString();
        this.filePath = filePath;
        this.uploadedAt = uploadedAt;
    }

    public void startedAs(long executionId) {
        this.executionId = executionId;
    }

    public String id() {
        return id;
    }

    public long executionId() {
        return executionId;
    }
}
