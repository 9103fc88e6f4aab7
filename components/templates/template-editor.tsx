"use client";

import { useEffect, useState, type PointerEvent as ReactPointerEvent } from "react";
import { DocumentPages } from "@/components/documents/document-pages";
import type { TPageSize, TRect } from "@/components/documents/geometry";
import { errorMessage } from "@/components/lib/api-client";
import { formatDateTime } from "@/components/lib/format";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import type { TFieldType } from "@/server/db/schema/templates";
import { DocumentUpload } from "./document-upload";
import { FIELD_TYPE_LABELS, DEFAULT_FIELD_SIZE, defaultRect, rectAt, roleColour } from "./field-geometry";
import { FieldLayer } from "./field-layer";
import { FieldPalette } from "./field-palette";
import { FieldPanel } from "./field-panel";
import { MergeFieldsPanel, QuestionsPanel } from "./keyed-list-panel";
import {
  documentFileUrl,
  useCreateField,
  useCreateRole,
  useDeleteField,
  useTemplate,
  useUpdateField,
  useUpdateRole,
  useUpdateTemplate,
  type TTemplate,
  type TTemplateDocument,
  type TTemplateField,
  type TUpdateFieldInput,
} from "./query";
import { BreakLock, EditorHeader } from "./editor-header";
import { DetailsForm, DocumentSection, Panel } from "./editor-sections";
import { RolesPanel } from "./roles-panel";
import { useAutosave, type TAutosave } from "./use-autosave";
import { useEditLock } from "./use-edit-lock";

type TEditorProps = { templateId: string; canEdit: boolean; isOwner: boolean };
type TDrag = { type: TFieldType; x: number; y: number; moved: boolean };

/** The template editor: documents with their fields, roles, merge fields and questions; autosaved, under an edit lock. */
export function TemplateEditor({ templateId, canEdit, isOwner }: TEditorProps) {
  const query = useTemplate(templateId);
  const lock = useEditLock(templateId, canEdit);
  const autosave = useAutosave();
  if (query.isPending) return <p className="py-10 text-center text-sm text-zinc-500">Loading template…</p>;
  if (query.isError) return <Alert tone="error">{errorMessage(query.error)}</Alert>;
  return <Editor template={query.data} canEdit={canEdit} isOwner={isOwner} lock={lock} autosave={autosave} />;
}

type TEditorInnerProps = { template: TTemplate; canEdit: boolean; isOwner: boolean; lock: ReturnType<typeof useEditLock>; autosave: TAutosave };

function Editor({ template, canEdit, isOwner, lock, autosave }: TEditorInnerProps) {
  const id = template.id;
  const heldByOther = template.lock !== null && !template.lock.mine;
  const mine = template.lock?.mine === true;
  const readOnly = !canEdit || !mine;
  const { save } = autosave;

  const updateTemplate = useUpdateTemplate(id);
  const createRole = useCreateRole(id);
  const updateRole = useUpdateRole(id);
  const createField = useCreateField(id);
  const updateField = useUpdateField(id);
  const deleteField = useDeleteField(id);

  const [activeRole, setActiveRole] = useState(0);
  const [selectedType, setSelectedType] = useState<TFieldType | null>(null);
  const [selectedId, setSelectedId] = useState<string | null>(null);
  const [drag, setDrag] = useState<TDrag | null>(null);
  const [loadedSizes, setLoadedSizes] = useState<Record<string, TPageSize[]>>({});
  const role = template.roles.find((r) => r.roleIndex === activeRole) ?? template.roles[0];
  const selected = template.fields.find((f) => f.id === selectedId) ?? null;

  const sizesOf = (doc: TTemplateDocument) => loadedSizes[doc.id] ?? doc.pageSizes ?? [];

  function placeField(type: TFieldType, doc: TTemplateDocument, page: number, rect: TRect) {
    if (!role) return;
    void save(`New ${FIELD_TYPE_LABELS[type]} field on page ${page}`, () =>
      createField.mutateAsync({ documentId: doc.id, roleIndex: role.roleIndex, type, page, ...rect, required: true }).then((f) => setSelectedId(f.id)),
    );
  }

  function changeField(field: TTemplateField, change: TUpdateFieldInput, what: string) {
    void save(`${FIELD_TYPE_LABELS[field.type]} field ${what}`, () => updateField.mutateAsync({ fieldId: field.id, ...change }));
  }

  function removeField(field: TTemplateField) {
    if (selectedId === field.id) setSelectedId(null);
    void save(`Deletion of a ${FIELD_TYPE_LABELS[field.type]} field`, () => deleteField.mutateAsync(field.id));
  }

  // A drag from the palette: the ghost follows the pointer; letting go over a page places the field there.
  useEffect(() => {
    if (!drag) return;
    const move = (e: PointerEvent) =>
      setDrag((d) => (d ? { ...d, x: e.clientX, y: e.clientY, moved: d.moved || Math.hypot(e.clientX - d.x, e.clientY - d.y) > 3 } : d));
    const up = (e: PointerEvent) => {
      const d = drag;
      setDrag(null);
      const overlay = document.elementsFromPoint(e.clientX, e.clientY).find((el) => el instanceof HTMLElement && el.dataset.pageOverlay) as
        HTMLElement | undefined;
      const docEl = overlay?.closest<HTMLElement>("[data-document-id]");
      const doc = template.documents.find((x) => x.id === docEl?.dataset.documentId);
      if (!overlay || !doc) return;
      const page = Number(overlay.dataset.pageOverlay);
      const size = sizesOf(doc)[page - 1];
      if (!size) return;
      const box = overlay.getBoundingClientRect();
      const scale = box.width / size.width;
      placeField(d.type, doc, page, rectAt(d.type, { x: (e.clientX - box.left) / scale, y: (e.clientY - box.top) / scale }, size));
    };
    window.addEventListener("pointermove", move);
    window.addEventListener("pointerup", up, { once: true });
    return () => {
      window.removeEventListener("pointermove", move);
      window.removeEventListener("pointerup", up);
    };
    // Re-subscribed per drag only: `drag` changes identity on every move, the listeners need the start.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [drag?.type]);

  function startDrag(type: TFieldType, e: ReactPointerEvent<HTMLButtonElement>) {
    e.currentTarget.releasePointerCapture?.(e.pointerId);
    setDrag({ type, x: e.clientX, y: e.clientY, moved: false });
  }

  return (
    <div className="space-y-6">
      <EditorHeader
        template={template}
        readOnly={readOnly}
        autosave={autosave}
        onStatus={(status, what) => save(what, () => updateTemplate.mutateAsync({ status }))}
      />

      {!canEdit ? (
        <Alert tone="info" title="Read only">
          Your role may use templates but not edit them.
        </Alert>
      ) : heldByOther && template.lock ? (
        <Alert tone="warning" title={`${template.lock.user.name} is editing this template`}>
          <p>
            You can look at it; changes are possible once {template.lock.user.name} ({template.lock.user.email}) leaves the editor or their lock expires (
            {formatDateTime(template.lock.expiresAt)}).
          </p>
          <div className="mt-3 flex flex-wrap gap-2">
            <Button variant="secondary" size="sm" onClick={lock.retake} pending={lock.taking}>
              Try again
            </Button>
            {isOwner ? <BreakLock holder={template.lock.user.name} lock={lock} /> : null}
          </div>
        </Alert>
      ) : !mine ? (
        <Alert tone="info">{lock.taking ? "Opening the template for editing…" : (errorMessage(lock.error) ?? "Opening the template for editing…")}</Alert>
      ) : null}

      {autosave.failed.length > 0 ? (
        <Alert tone="error" title={autosave.failed.length === 1 ? "1 change was not saved" : `${autosave.failed.length} changes were not saved`}>
          <ul className="space-y-2">
            {autosave.failed.map((f) => (
              <li key={f.id} className="flex flex-wrap items-center justify-between gap-2">
                <span>
                  <strong>{f.label}</strong>: {f.message}
                </span>
                <span className="flex gap-2">
                  <Button variant="secondary" size="sm" onClick={f.retry}>
                    Retry
                  </Button>
                  <Button variant="ghost" size="sm" onClick={f.dismiss}>
                    Dismiss
                  </Button>
                </span>
              </li>
            ))}
          </ul>
        </Alert>
      ) : null}

      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <aside
          aria-label="Editor tools"
          className="space-y-6 lg:sticky lg:top-4 lg:col-start-2 lg:row-start-1 lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto"
        >
          <Card>
            <CardHeader title="Fields" />
            <CardBody>
              <FieldPalette
                roles={template.roles}
                activeRole={role?.roleIndex ?? 0}
                onActiveRole={setActiveRole}
                selectedType={selectedType}
                onSelectType={setSelectedType}
                onDragStart={startDrag}
                disabled={readOnly}
              />
            </CardBody>
          </Card>
          {selected ? (
            <Card>
              <CardBody>
                <FieldPanel
                  field={selected}
                  roles={template.roles}
                  mergeFields={template.mergeFields}
                  readOnly={readOnly}
                  onUpdate={changeField}
                  onDelete={removeField}
                  onClose={() => setSelectedId(null)}
                />
              </CardBody>
            </Card>
          ) : null}
          <Panel title="Roles" description="One per signer, in signing order." open>
            <RolesPanel
              template={template}
              readOnly={readOnly}
              onCreate={(name) => save(`New role ${name}`, () => createRole.mutateAsync({ name }))}
              onUpdate={(r, change, what) => void save(`Role ${r.name} ${what}`, () => updateRole.mutateAsync({ roleIndex: r.roleIndex, ...change }))}
            />
          </Panel>
          <Panel title="Merge fields" description={`${template.mergeFields.length} defined`}>
            <MergeFieldsPanel
              items={template.mergeFields}
              readOnly={readOnly}
              onSave={(mergeFields, what) => void save(`Change of ${what}`, () => updateTemplate.mutateAsync({ mergeFields }))}
            />
          </Panel>
          <Panel title="Sender questions" description={`${template.questions.length} defined`}>
            <QuestionsPanel
              items={template.questions}
              readOnly={readOnly}
              onSave={(questions, what) => void save(`Change of ${what}`, () => updateTemplate.mutateAsync({ questions }))}
            />
          </Panel>
          <Panel title="Details">
            <DetailsForm
              key={`${template.name}|${template.description}`}
              template={template}
              readOnly={readOnly}
              onSave={(change, what) => void save(what, () => updateTemplate.mutateAsync(change))}
            />
          </Panel>
        </aside>

        <div className="min-w-0 space-y-6 lg:col-start-1 lg:row-start-1">
          <Card>
            <CardHeader title="Documents" description="Signers see them in this order. Fields are placed on the pages below." />
            <CardBody className="space-y-6">
              <DocumentUpload templateId={template.id} disabled={readOnly} />
              {template.documents.map((doc) => (
                <DocumentSection key={doc.id} template={template} doc={doc} readOnly={readOnly}>
                  {doc.uploadState === "UPLOADED" && doc.contentType === "application/pdf" ? (
                    <div data-document-id={doc.id}>
                      <DocumentPages
                        url={documentFileUrl(template.id, doc.id)}
                        label={doc.name}
                        pageSizes={doc.pageSizes}
                        onLoad={(sizes) => setLoadedSizes((s) => ({ ...s, [doc.id]: sizes }))}
                        renderOverlay={(page) => (
                          <FieldLayer
                            page={page}
                            fields={template.fields.filter((f) => f.documentId === doc.id && f.page === page.pageNumber)}
                            roles={template.roles}
                            selectedId={selectedId}
                            readOnly={readOnly}
                            onSelect={setSelectedId}
                            onChange={(field, rect) => changeField(field, rect, "move")}
                            onDelete={removeField}
                          />
                        )}
                        renderPageFooter={(page) =>
                          selectedType && role && !readOnly ? (
                            <Button
                              variant="secondary"
                              size="sm"
                              onClick={() =>
                                placeField(
                                  selectedType,
                                  doc,
                                  page.pageNumber,
                                  defaultRect(
                                    selectedType,
                                    page.size,
                                    template.fields.filter((f) => f.documentId === doc.id && f.page === page.pageNumber).length,
                                  ),
                                )
                              }
                            >
                              Add {FIELD_TYPE_LABELS[selectedType]} to page {page.pageNumber}
                            </Button>
                          ) : (
                            <p className="text-right text-xs text-zinc-500">
                              Page {page.pageNumber} of {sizesOf(doc).length}
                            </p>
                          )
                        }
                      />
                    </div>
                  ) : null}
                </DocumentSection>
              ))}
            </CardBody>
          </Card>
        </div>
      </div>

      {drag?.moved ? (
        <div
          aria-hidden="true"
          className="pointer-events-none fixed z-50 flex items-center justify-center rounded-sm border-2 text-[11px] font-medium shadow-lg"
          style={{
            left: drag.x - DEFAULT_FIELD_SIZE[drag.type].width / 2,
            top: drag.y - DEFAULT_FIELD_SIZE[drag.type].height / 2,
            width: DEFAULT_FIELD_SIZE[drag.type].width,
            height: DEFAULT_FIELD_SIZE[drag.type].height,
            borderColor: roleColour(role?.roleIndex ?? 0),
            backgroundColor: `${roleColour(role?.roleIndex ?? 0)}33`,
            color: roleColour(role?.roleIndex ?? 0),
          }}
        >
          {FIELD_TYPE_LABELS[drag.type]}
        </div>
      ) : null}
    </div>
  );
}
